export { getNotificationHub, stopNotificationHub, NotificationHub, MAX_STREAMS_PER_USER, type StreamSubscriber } from "./hub";
export { openNotificationStream, setPingInterval, DEFAULT_PING_INTERVAL_MS, EVENT_STREAM_HEADERS, type OpenStreamOptions } from "./sse";
