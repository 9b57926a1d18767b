/**
 * Topic layout (docs/devices.md): everything of a device lives under `devices/{serial}/`:
 * - `events`: the device publishes its events (QoS 1; acknowledged once stored);
 * - `replies`: the device answers a command (JSON with the command's `id`);
 * - `commands`: the device subscribes; the gateway publishes commands;
 * - `rejections`: the device may subscribe; the gateway says why an event was refused;
 * - `status`: the device's presence, `online` / `offline`, retained, with the offline one as its Last Will
 *   (ADR 049; the external gateway applies it, the embedded broker sees connections itself).
 */
export const TOPIC_KINDS = ['events', 'replies', 'commands', 'rejections', 'status'] as const;
export type TopicKind = (typeof TOPIC_KINDS)[number];

const SERIAL = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

export function parseTopic(topic: string): { serial: string; kind: TopicKind } | null {
  const parts = topic.split('/');
  if (parts.length !== 3 || parts[0] !== 'devices') return null;
  const [, serial, kind] = parts as [string, string, string];
  if (!SERIAL.test(serial) || !(TOPIC_KINDS as readonly string[]).includes(kind)) return null;
  return { serial, kind: kind as TopicKind };
}

export const isSerial = (v: string) => SERIAL.test(v);
export const eventsTopic = (serial: string) => `devices/${serial}/events`;
export const repliesTopic = (serial: string) => `devices/${serial}/replies`;
export const commandsTopic = (serial: string) => `devices/${serial}/commands`;
export const rejectionTopic = (serial: string) => `devices/${serial}/rejections`;
export const statusTopic = (serial: string) => `devices/${serial}/status`;
