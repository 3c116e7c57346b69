/** The ten switches of the preferences form, in the order they are shown, with the form field names. */
export const emailSwitches = [
  { name: "emailTagScanned", label: "A tag is scanned", key: "tagScanned" },
  { name: "emailMessageReceived", label: "A finder sends a message", key: "messageReceived" },
  { name: "emailStatusChange", label: "Status changes (transfers, rewards, lost and found, security alerts)", key: "statusChange" },
  { name: "emailLostPetNearby", label: "Lost pets near my home", key: "lostPetNearby" },
  { name: "emailMarketing", label: "News and offers", key: "marketing" },
] as const;

export const pushSwitches = [
  { name: "pushTagScanned", label: "A tag is scanned", key: "tagScanned" },
  { name: "pushMessageReceived", label: "A finder sends a message", key: "messageReceived" },
  { name: "pushStatusChange", label: "Status changes (transfers, rewards, lost and found, security alerts)", key: "statusChange" },
  { name: "pushLostPetNearby", label: "Lost pets near my home", key: "lostPetNearby" },
] as const;

export const switchNames: readonly string[] = [...emailSwitches, ...pushSwitches].map((item) => item.name);
