import { randomUUID } from 'node:crypto';
import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { EngineerCommandType, EngineerNode, EngineerSessionStatus } from '../protocol/engineer.ts';
import { engineerDecider, type EngineerCommand } from './decide.ts';
import { engineerStream, type EngineerSource } from './session.ts';

type Data<Type extends EngineerCommand['type']> = Omit<Extract<EngineerCommand, { type: Type }>['data'], 'sessionId' | 'actorId'>;

/** What the routes, the socket and the demo agent do to a session; each call answers the log position it wrote (0 for nothing). */
export class EngineerService {
  constructor(private readonly services: { commands: CommandHandler; clock: () => Date }) {}

  private async run(actorId: string, sessionId: string, command: Pick<EngineerCommand, 'type' | 'data'>): Promise<number> {
    const metadata = { now: this.services.clock(), userId: actorId };
    const { position } = await this.services.commands.handle(engineerDecider, engineerStream(sessionId), { ...command, metadata } as EngineerCommand);
    return position;
  }

  create(ownerId: string, sessionId: string, session: { title: string; taskDescription: string; source: EngineerSource }): Promise<number> {
    return this.run(ownerId, sessionId, { type: 'CreateEngineerSession', data: { sessionId, ownerId, ...session } });
  }

  appendNodes(actorId: string, sessionId: string, nodes: EngineerNode[], status?: EngineerSessionStatus): Promise<number> {
    return this.run(actorId, sessionId, { type: 'AppendEngineerNodes', data: { sessionId, actorId, nodes, ...(status !== undefined && { status }) } });
  }

  setStatus(actorId: string, sessionId: string, status: EngineerSessionStatus): Promise<number> {
    return this.run(actorId, sessionId, { type: 'ChangeEngineerStatus', data: { sessionId, actorId, status } });
  }

  /** A new command (user input is a `message` command, so an agent polls one queue); answers its id beside the position. */
  async issue(actorId: string, sessionId: string, command: { commandType: EngineerCommandType; content: string; clientId: string | null }): Promise<{ commandId: string; position: number }> {
    const commandId = randomUUID();
    const position = await this.run(actorId, sessionId, { type: 'IssueEngineerCommand', data: { sessionId, actorId, commandId, ...command } });
    return { commandId, position };
  }

  deliver(actorId: string, sessionId: string, clientId: string, commandIds: string[]): Promise<number> {
    return this.run(actorId, sessionId, { type: 'DeliverEngineerCommands', data: { sessionId, actorId, clientId, commandIds } });
  }

  recordResult(actorId: string, sessionId: string, result: Data<'RecordEngineerCommandResult'>): Promise<number> {
    return this.run(actorId, sessionId, { type: 'RecordEngineerCommandResult', data: { sessionId, actorId, ...result } });
  }
}
