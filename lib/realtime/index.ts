export { getNotificationHub, stopNotificationHub, openStreamCounts, NotificationHub, MAX_STREAMS_PER_USER, MAX_STREAMS_PER_THREAD, type StreamSubscriber, type ThreadStreamSubscriber } from "./hub";
export { openNotificationStream, openThreadStream, setPingInterval, DEFAULT_PING_INTERVAL_MS, EVENT_STREAM_HEADERS, type OpenStreamOptions } from "./sse";
