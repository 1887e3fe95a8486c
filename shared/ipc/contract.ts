/**
 * The table of the contract: every channel and every event, gathered from the namespaces. A channel's name is
 * `namespace:kebab-action`, and its namespace's file declares it with its shapes.
 */
import type { Static } from 'typebox';
import { apiChannels } from './api';
import { appChannels, appEvents } from './app';
import { connectionChannels, connectionEvents } from './connections';
import { dialogChannels } from './dialog';
import { dropFolderChannels, dropFolderEvents } from './dropfolders';
import { fileChannels } from './files';
import { httpEvents } from './http';
import { localChannels, localEvents } from './local';
import { networkChannels } from './network';
import { noticeEvents } from './notice';
import { passportChannels, passportEvents } from './passports';
import { shellChannels } from './shell';
import { uploadChannels, uploadEvents } from './uploads';
import { vaultChannels } from './vault';

/** Every request/response channel, named `namespace:kebab-action`. */
export const ipcChannels = {
  ...appChannels,
  ...connectionChannels,
  ...vaultChannels,
  ...apiChannels,
  ...localChannels,
  ...shellChannels,
  ...dialogChannels,
  ...dropFolderChannels,
  ...passportChannels,
  ...uploadChannels,
  ...fileChannels,
  ...networkChannels,
} as const;

/** A channel's name. */
export type IpcChannel = keyof typeof ipcChannels;
/** What a channel takes. */
export type IpcRequest<C extends IpcChannel> = Static<(typeof ipcChannels)[C]['request']>;
/** What a channel answers. */
export type IpcValue<C extends IpcChannel> = Static<(typeof ipcChannels)[C]['response']>;

/** Every event the host sends the renderer, with its payload. */
export const ipcEvents = {
  ...appEvents,
  ...connectionEvents,
  ...localEvents,
  ...httpEvents,
  ...dropFolderEvents,
  ...passportEvents,
  ...uploadEvents,
  ...noticeEvents,
} as const;

/** An event's name. */
export type IpcEvent = keyof typeof ipcEvents;
/** An event's payload. */
export type IpcEventPayload<E extends IpcEvent> = Static<(typeof ipcEvents)[E]>;

/** The channel names, for hosts that register one handler each. */
export const IPC_CHANNELS = Object.keys(ipcChannels) as IpcChannel[];
/** The event names. */
export const IPC_EVENTS = Object.keys(ipcEvents) as IpcEvent[];

/** The single IPC channel events travel on in Electron; the event name is part of the message. */
export const IPC_EVENT_CHANNEL = 'bridge:event';
