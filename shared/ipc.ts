/**
 * The Bridge contract between the renderer and its host (Electron main, or the browser host over a WebSocket):
 * every channel with the TypeBox schemas of its request and its value, and every event the host sends.
 * Both hosts validate requests against these schemas because the renderer is the less trusted side; the renderer
 * gets a `Bridge` built from the same table, so a channel exists once, with one name, on both sides.
 * Each namespace declares its channels, events and shapes in `ipc/<namespace>.ts`; `ipc/contract.ts` gathers them,
 * and this file is the one entry to all of it.
 */
export { BridgeError, IpcError, IpcErrorCode, type IpcResult } from './ipc/results';
export { type ChannelDefinition } from './ipc/channel';
export {
  IPC_CHANNELS,
  IPC_EVENT_CHANNEL,
  IPC_EVENTS,
  type IpcChannel,
  ipcChannels,
  type IpcEvent,
  type IpcEventPayload,
  ipcEvents,
  type IpcRequest,
  type IpcValue,
} from './ipc/contract';
export { type Bridge, bridgeMethodOf, type BridgeTransport, createBridge } from './ipc/bridge';
export { ipcErrorOf, isChannelValue, isIpcChannel, requestProblem } from './ipc/validation';
export { AppInfo, DiagnosticsExport, FilesOpened, StartAtLoginSetting, UpdateState } from './ipc/app';
export {
  BaseUrl,
  Connection,
  ConnectionApiVersion,
  ConnectionDraft,
  ConnectionDraftTest,
  ConnectionKind,
  ConnectionList,
  ConnectionTestResult,
  ConnectionUpdate,
} from './ipc/connections';
export { KeyProtection, SetKeyRequest, VaultStatus } from './ipc/vault';
export { ApiAnswer, ApiRequest, ImageContentType, ImageUpload, MAX_IMAGE_UPLOAD_BYTES } from './ipc/api';
export { LocalMigrationRequest, LocalMigrationResult, LocalWorkspaceStatus } from './ipc/local';
export { HttpActivity } from './ipc/http';
export { ExternalUrl } from './ipc/shell';
export { ChooseFolderRequest, ChosenFolder } from './ipc/dialog';
export { DropFolderFileRef, DropFolderRescan, DropFolderUpdate } from './ipc/dropfolders';
export { PassportHistoryQuery, PassportRequest, PassportTargetUpdate } from './ipc/passports';
export { ProxyTestResult } from './ipc/network';
export { Notice, NoticeKind } from './ipc/notice';
