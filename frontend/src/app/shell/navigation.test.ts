import test from 'ava';
import { initials, isNavEntryActive, navTarget, subPanelFor } from './navigation.ts';

test('the CLI entry toggles between trajectories and research', (t) => {
  t.is(navTarget('cliTrajectories', '/research'), '/cli/trajectories');
  t.is(navTarget('cliTrajectories', '/note'), '/cli/trajectories');
  t.is(navTarget('cliTrajectories', '/cli/trajectories'), '/research');
  t.is(navTarget('conversation', '/note'), '/research');
  t.is(navTarget('notes', '/research'), '/note');
  t.is(navTarget('cognition', '/research'), '/cognition');
});

test('entries light up for their own section only', (t) => {
  t.true(isNavEntryActive('conversation', '/research'));
  t.true(isNavEntryActive('cognition', '/cognition/library/7'));
  t.false(isNavEntryActive('notes', '/notebook'));
  t.true(isNavEntryActive('cliTrajectories', '/cli/trajectories'));
  t.false(isNavEntryActive('cliTrajectories', '/cli'));
});

test('each section has its sub-panel', (t) => {
  t.is(subPanelFor('/research'), 'research');
  t.is(subPanelFor('/note'), 'note');
  t.is(subPanelFor('/cognition/display'), 'cognition');
  t.is(subPanelFor('/cli/docs'), 'cli');
  t.is(subPanelFor('/cli-leaderboard'), null);
  t.is(subPanelFor('/manage'), null);
});

test('initials', (t) => {
  t.is(initials('lin'), 'L');
  t.is(initials('ada lovelace'), 'AL');
  t.is(initials('grace_b_hopper'), 'GB');
  t.is(initials('张三'), '张');
  t.is(initials('  '), '?');
});
