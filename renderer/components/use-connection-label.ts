/**
 * A connection as every screen names it: its name, marked when it reaches another computer over plain http (the key
 * and the data travel unencrypted), and a plain word for a connection that no longer exists.
 */
import { useI18n } from 'vue-i18n';
import { isInsecureAddress } from '../../shared/connection-address';
import type { Connection } from '../../shared/ipc';
import { useConnectionsStore } from '../stores/connections';

/** Call from a component's setup; answers the label of a connection and of a connection by id. */
export function useConnectionLabel() {
  const { t } = useI18n();
  const connections = useConnectionsStore();

  function labelOf(connection: Pick<Connection, 'name' | 'baseUrl'>): string {
    return isInsecureAddress(connection.baseUrl) ? t('connections.insecureName', { name: connection.name }) : connection.name;
  }

  function labelOfId(connectionId: string): string {
    const connection = connections.connections.find((each) => each.id === connectionId);
    return connection === undefined ? t('dropFolders.unknownConnection') : labelOf(connection);
  }

  return { labelOf, labelOfId };
}
