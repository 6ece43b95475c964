import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { socketClient } from '../api/socket.ts';
import { connectionStatus } from '../machines/connection.ts';
import './connection.css';

/** Spec §2: 已连接 / 连接中... / 已断开 / 连接失败. */
export function ConnectionStatus() {
  const { t } = useTranslation();
  const status = useSelector(socketClient.actor, connectionStatus);
  return (
    <span className={`connection connection-${status}`} role="status" title={t('connection.label')}>
      <span className="connection-dot" aria-hidden="true" />
      <span className="sr-only-compact">{t(`connection.${status}`)}</span>
    </span>
  );
}
