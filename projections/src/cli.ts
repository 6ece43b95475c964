import { loadConfig } from '@scriptorium/infra/config/config';
import { createEventStore } from '@scriptorium/infra/eventstore/index';
import { createLogger } from '@scriptorium/infra/log';
import { createReadStore } from '@scriptorium/infra/readstore/index';
import { createProjections } from './index.ts';
import { ProjectionRunner } from './runner.ts';
import { verifyProjection } from './verify.ts';

/**
 * `npm run projections -- list | rebuild <name> | verify <name>`. A rebuild resets the read model and
 * replays the log into it; run it while no projector role is running against the same read store.
 * A verify only reads: it rebuilds into a shadow store and lists every document that differs.
 */
async function main(): Promise<void> {
  const [command, name] = process.argv.slice(2);
  const config = loadConfig();
  const allProjections = createProjections({ timeZone: config.TIME_ZONE });
  if (command === 'list') {
    for (const projection of allProjections) process.stdout.write(`${projection.name}\t${projection.collections.join(', ')}\n`);
    return;
  }
  const projection = allProjections.find((candidate) => candidate.name === name);
  if (!['rebuild', 'verify'].includes(command ?? '') || !projection) {
    process.stderr.write(`usage: npm run projections -- list | rebuild <name> | verify <${allProjections.map((candidate) => candidate.name).join('|')}>\n`);
    process.exit(2);
  }
  const [events, readStore] = await Promise.all([createEventStore(config), createReadStore(config, { checkServer: true })]);
  if (command === 'verify') {
    const report = await verifyProjection(events, readStore, projection, (position, until) => process.stdout.write(`\r${projection.name}: shadow ${position}/${until}   `));
    process.stdout.write(`\n${projection.name} at ${report.position}: ${report.documents} documents, ${report.differences.length}${report.truncated ? '+' : ''} differences\n`);
    for (const difference of report.differences) process.stdout.write(`${JSON.stringify(difference)}\n`);
    await readStore.close();
    await events.close();
    process.exit(report.differences.length === 0 ? 0 : 1);
  }
  const runner = new ProjectionRunner(events, readStore, [projection], createLogger('warn', 'projections-cli'));
  const head = await events.headPosition();
  const started = Date.now();
  await readStore.reset(projection.name, projection.collections);
  await projection.setup?.(readStore);
  await runner.catchUp((position) => {
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(`\r${projection.name}: ${position}/${head} (${head ? Math.floor((position / head) * 100) : 100}%), ${Math.round(position / Math.max(seconds, 0.001))} events/s   `);
  });
  process.stdout.write(`\n${projection.name} rebuilt from ${head} events in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  await readStore.close();
  await events.close();
}

await main();
