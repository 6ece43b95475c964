import { lazy, useState, type ComponentType } from 'react';
import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router-dom';
import { DRAFT_PATH, HOME_PATH, type RouteAccess } from './guard.ts';
import { RootLayout } from './RootLayout.tsx';
import { RouteError } from './RouteError.tsx';

type Load = () => Promise<{ default: ComponentType }>;

/**
 * The route table of both specs. `requiresAuth` as the spec's table marks it: "login" is true,
 * "public"/"open" is false, and "-" is left unset, which the guard treats as needing login.
 * Every screen is its own chunk so the first visit loads only the shell and the screen it opens.
 */
const SCREENS: ReadonlyArray<{ path: string; access: RouteAccess; load: Load }> = [
  { path: HOME_PATH, access: { name: 'research', requiresAuth: false }, load: () => import('../research/ResearchPage.tsx') },
  { path: '/login', access: { name: 'login', requiresAuth: false }, load: () => import('../signin/LoginPage.tsx') },
  { path: '/register', access: { name: 'register', requiresAuth: false }, load: () => import('../signin/RegisterPage.tsx') },
  { path: '/oauth/authorize', access: { name: 'oauth-authorize', requiresAuth: true }, load: () => import('../oauth/OAuthAuthorizePage.tsx') },
  { path: '/engineer/:sessionId?', access: { name: 'engineer' }, load: () => import('../engineer/EngineerPage.tsx') },
  { path: '/cli', access: { name: 'cli', requiresAuth: false }, load: () => import('../trajectories/CliPage.tsx') },
  { path: '/cli/docs', access: { name: 'cli-docs', requiresAuth: false }, load: () => import('../trajectories/CliDocsPage.tsx') },
  { path: '/cli/test', access: { name: 'cli-test', requiresAuth: true }, load: () => import('../trajectories/CliTestPage.tsx') },
  { path: '/cli/trajectories', access: { name: 'cli-trajectories', requiresAuth: true }, load: () => import('../trajectories/CliTrajectoriesPage.tsx') },
  { path: '/cli-leaderboard', access: { name: 'cli-leaderboard', requiresAuth: false }, load: () => import('../trajectories/CliLeaderboardPage.tsx') },
  { path: '/shared/trajectory/:token', access: { name: 'shared-trajectory', requiresAuth: false }, load: () => import('../trajectories/SharedTrajectoryPage.tsx') },
  { path: '/note', access: { name: 'note' }, load: () => import('../notes/NotePage.tsx') },
  { path: '/share/:token', access: { name: 'shared-note', requiresAuth: false }, load: () => import('../notes/SharedNotePage.tsx') },
  { path: '/share/folder/:token', access: { name: 'shared-folder', requiresAuth: false }, load: () => import('../notes/SharedNotePage.tsx') },
  { path: '/share/cognition/:id', access: { name: 'shared-cognition', requiresAuth: false }, load: () => import('../cognition/SharedCognitionPage.tsx') },
  { path: '/share/report/:shareId', access: { name: 'shared-report', requiresAuth: false }, load: () => import('../share/ShareReportPage.tsx') },
  { path: '/share/artifact/:shareId', access: { name: 'shared-artifact', requiresAuth: false }, load: () => import('../share/ShareArtifactPage.tsx') },
  { path: '/share/conversation/:shareId', access: { name: 'shared-conversation', requiresAuth: false }, load: () => import('../share/ShareConversationPage.tsx') },
  { path: '/cognition', access: { name: 'cognition', requiresAuth: false }, load: () => import('../cognition/CognitionPage.tsx') },
  { path: '/cognition/display', access: { name: 'cognition-display', requiresAuth: false }, load: () => import('../cognition/CognitionDisplayPage.tsx') },
  { path: '/cognition/library', access: { name: 'cognition-library', requiresAuth: true }, load: () => import('../cognition/CognitionLibraryPage.tsx') },
  { path: '/cognition/library/:id', access: { name: 'cognition-collection', requiresAuth: true }, load: () => import('../cognition/CognitionCollectionPage.tsx') },
  { path: '/ai-first/writing-agent', access: { name: 'writing-agent', requiresAuth: true }, load: () => import('../routes/writing-agent/WritingAgentPage.tsx') },
  { path: '/audit', access: { name: 'audit', requiresAuth: true, requiresAuditor: true }, load: () => import('../audit/AuditPage.tsx') },
  { path: '/manage', access: { name: 'manage', requiresAuth: true, requiresAdmin: true }, load: () => import('../manage/ManagePage.tsx') },
  { path: '/admin/dashboard', access: { name: 'admin-dashboard', requiresAuth: true, requiresAdmin: true }, load: () => import('../manage/AdminDashboardPage.tsx') },
  { path: '/demo/i18n', access: { name: 'demo-i18n' }, load: () => import('../routes/demo-i18n/DemoI18nPage.tsx') },
  { path: '/ppt/:reviewId?', access: { name: 'ppt' }, load: () => import('../ppt/PptPage.tsx') },
  { path: '/collaboration/:docId?', access: { name: 'collaboration' }, load: () => import('../collab/CollaborationPage.tsx') },
  { path: '/remote', access: { name: 'remote', requiresAuth: true }, load: () => import('../agents/RemotePage.tsx') },
  { path: '/remote/create', access: { name: 'remote-create', requiresAuth: true }, load: () => import('../agents/RemoteCreatePage.tsx') },
  // Paths the startup logic names, and the draft page the guard needs (its definition is not shown).
  { path: '/welcome', access: { name: 'welcome', requiresAuth: false }, load: () => import('../routes/welcome/WelcomePage.tsx') },
  { path: '/error', access: { name: 'error', requiresAuth: false }, load: () => import('../routes/error/ErrorPage.tsx') },
  { path: DRAFT_PATH, access: { name: 'draft' }, load: () => import('../routes/draft/DraftPage.tsx') },
  { path: '*', access: { name: 'not-found', requiresAuth: false }, load: () => import('../routes/not-found/NotFoundPage.tsx') },
];

/** /auth is only named by the startup logic; it is the sign-in page under another name. */
function AuthAlias() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: '/login', search }} replace />;
}

interface Chunk {
  fetch: () => Promise<void>;
  /** The screen's component, once its chunk has arrived. */
  loaded?: ComponentType;
}
const chunks = new Map<Load, Chunk>();

/** A screen's chunk, imported once whoever asks first (the first URL's preload or the route). */
function chunk(load: Load): Chunk {
  const known = chunks.get(load);
  if (known) return known;
  let pending: Promise<void> | undefined;
  const created: Chunk = {
    fetch: () =>
      (pending ??= load().then((module) => {
        created.loaded = module.default;
      })),
  };
  chunks.set(load, created);
  return created;
}

function screenRoute({ path, access, load }: (typeof SCREENS)[number]): RouteObject {
  const screen = chunk(load);
  const Lazy = lazy(() => screen.fetch().then(() => ({ default: screen.loaded! })));
  // A screen whose chunk has arrived renders in the same pass as the shell, without a fallback;
  // chosen once per mount, so the arrival of the chunk never remounts a screen already shown.
  function Screen() {
    const [Component] = useState(() => screen.loaded ?? Lazy);
    return <Component />;
  }
  return { path, handle: access, element: <Screen /> };
}

const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // If the shell itself failed, render the message bare rather than risk the same failure again.
    errorElement: (
      <div className="fullscreen">
        <RouteError />
      </div>
    ),
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { path: '/', handle: { name: 'index' } satisfies RouteAccess, element: <Navigate to={HOME_PATH} replace /> },
          { path: '/auth', handle: { name: 'auth', requiresAuth: false } satisfies RouteAccess, element: <AuthAlias /> },
          ...SCREENS.map(screenRoute),
        ],
      },
    ],
  },
];

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * The app's router, and a promise that settles once the first URL's screen is there (or could not
 * be fetched: the route's own lazy load then shows the failure). main.tsx creates it in a task of its
 * own and renders after the promise, so the shell and the screen appear in one paint, and what the
 * screen shows at once (the welcome tip on /research, the page's largest text) does not wait for the
 * chunks the screen itself suspends on.
 */
export function createAppRouter(): { router: AppRouter; firstScreenReady: Promise<void> } {
  const router = createBrowserRouter(routes);
  // The first URL's screen starts loading now rather than once the shell has rendered and suspended
  // on it: a round trip less before the page shows its content. The router has matched the URL
  // already; matching it again would rank the route table a second time.
  const firstPath = router.state.matches.at(-1)?.route.path;
  const firstScreen = SCREENS.find((screen) => screen.path === firstPath);
  return { router, firstScreenReady: firstScreen ? chunk(firstScreen.load).fetch().catch(() => undefined) : Promise.resolve() };
}
