/** The languages the command-line assistant speaks: Chinese first, as the product is, and English. */
export type CliLanguage = 'zh' | 'en';

/**
 * `--lang zh|en` wins; otherwise the locale POSIX names (LC_ALL, then LC_MESSAGES, then LANG), English
 * when it is an English one, Chinese for anything else (C.UTF-8 included), as the web page defaults.
 */
export function cliLanguage(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): CliLanguage {
  if (flag === 'en' || flag === 'zh') return flag;
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '') ?? '';
  return /^en([_.@-]|$)/i.test(locale) ? 'en' : 'zh';
}

/** Takes `--lang X` or `--lang=X` out of the arguments, wherever it stands before `--`. */
export function withoutLangFlag(args: readonly string[]): { flag: string | undefined; rest: string[] } {
  const end = args.includes('--') ? args.indexOf('--') : args.length;
  let flag: string | undefined;
  const rest: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (index < end && arg === '--lang') flag = args[++index];
    else if (index < end && arg.startsWith('--lang=')) flag = arg.slice('--lang='.length);
    else rest.push(arg);
  }
  return { flag, rest };
}

const zh = {
  notSignedIn: '尚未登录，请先运行 scriptorium login',
  signInAgain: '登录已失效，请重新运行 scriptorium login',
  signInAgainBecause: (reason: string) => `${reason}；请重新运行 scriptorium login`,
  inputEnded: (missing: string) => `输入已结束，没有读到${missing}`,
  signedIn: (server: string, username: string) => `已登录 ${server}，用户 ${username}\n`,
  usernamePrompt: '用户名: ',
  username: '用户名',
  passwordPrompt: '密码: ',
  password: '密码',
  signInFailed: (status: number) => `登录失败（HTTP ${status}）`,
  uploadFailedStatus: (status: number) => `轨迹上传失败（HTTP ${status}）`,
  uploadFailed: (reason: string) => `轨迹上传失败：${reason}`,
  help: `Scriptorium 命令行助手

  scriptorium login [--server URL] [--no-browser]     在浏览器中授权登录（OAuth，打印授权地址）
  scriptorium login --password [--username 名称]      用户名和密码登录（无浏览器时；密码：提示输入或 SCRIPTORIUM_PASSWORD）
  scriptorium chat  [--project 名称] [--allow-browser-commands]
                                                     对话：直接输入问题；!命令 运行命令；/help 帮助；/exit 结束
                                                     助手建议的命令须你在终端输入 y 才会运行（在浏览器点“批准运行”后也要在终端确认）；
                                                     浏览器发来的命令也须你在终端输入 y 才会运行
      --allow-browser-commands                       浏览器发来的命令和批准直接生效，不再在终端询问；
                                                     持有你账户令牌的任何人都能借此在本机运行命令，请只在可信环境中使用
  scriptorium run   [--project 名称] -- <命令…>        运行一条命令并记录：多个参数按原样运行，不经 shell；
                                                     单个参数是一整行命令（如 "npm test && echo ok"），交给 shell 运行
  scriptorium whoami | logout
  --lang zh|en                                       输出语言（默认跟随 LANG）

每个会话都会记录为轨迹（/cli/trajectories），并作为工程会话实时显示在 /engineer，可在浏览器中发送消息、命令，批准或拒绝助手建议的命令。
`,
  chatHelp: `直接输入问题；!命令 运行命令（如 !npm test）；/help 显示本帮助；/exit 结束会话（Ctrl-C 亦可）。
助手可能建议运行一条命令：它在你自己的 shell 中运行、不受沙箱限制，所以只有在你于终端输入 y 后才会运行；直接回车或输入其他内容即拒绝。在浏览器中点“拒绝运行”即拒绝，点“批准运行”后仍要在终端确认。
浏览器发来的命令同样要你在终端输入 y 才会运行。以 --allow-browser-commands 启动的对话不再询问：浏览器的命令和批准直接生效。\n`,
  chatTitle: (project: string) => `${project} · 对话`,
  chatGreeting: (project: string) => `Scriptorium 命令行助手（${project}）。直接输入问题；!命令 运行命令；/help 帮助；/exit 结束。\n`,
  browserMayRun: '注意：已允许浏览器直接运行命令（--allow-browser-commands）。\n',
  watchLive: (url: string) => `实时查看：${url}\n`,
  proposed: (command: string) => `助手建议运行：${command}  运行？[y/N] `,
  fromBrowser: (command: string) => `运行浏览器发来的命令：${command}  运行？[y/N] `,
  browserVerdict: (approved: boolean) => `\n[浏览器] ${approved ? '批准运行' : '拒绝运行'}\n`,
  browserApproved: '\n[浏览器] 批准运行：在终端确认后才会运行\n',
  declinedResult: (command: string) => `已拒绝运行：${command}`,
  declined: '已拒绝，命令没有运行。\n',
  alreadyAnswered: '该命令建议已有答复，这次答复被忽略',
  recorded: (count: number, url: string) => `\n会话已记录，共 ${count} 个事件：${url}\n`,
  exitCode: (code: number) => `退出码 ${code}`,
  browserLabel: '[浏览器]',
  terminalRefused: '终端拒绝运行浏览器发来的命令',
  runUsage: '用法：scriptorium run [--project 名称] -- <命令…>',
  signedOut: '已退出登录\n',
  signedOutOnServer: '已退出登录，服务器上的这次登录已撤销\n',
  signedOutLocally: (reason: string) => `已删除本机保存的令牌，但没有通知到服务器（${reason}）：这次登录在到期前仍然有效，可在网页账户面板的「已授权的应用」中撤销`,
  serverUnreachable: (server: string) => `无法连接 ${server}`,
  serverAnswered: (status: number) => `服务器返回 HTTP ${status}`,
  usage: (commands: string) => `用法：scriptorium <${commands}>（scriptorium --help 查看帮助）`,
  chatTask: (project: string) => `scriptorium chat（${project}）`,
  runTask: (project: string) => `scriptorium run（${project}）`,
  syncFailed: (reason: string) => `工程会话同步失败：${reason}`,
  cannotReach: (server: string, reason: string) => `无法连接 ${server}：${reason}`,
  noOAuth: (server: string, status: number) => `${server} 未提供 OAuth 授权服务（HTTP ${status}），可改用 scriptorium login --password`,
  noPkce: '服务器不支持 PKCE S256，可改用 scriptorium login --password',
  authTimedOut: '等待浏览器授权超时，请重新运行 scriptorium login',
  openToAuthorise: (url: string) => `请在浏览器中打开以下地址，确认授权命令行助手：\n\n  ${url}\n\n`,
  otherIssuer: '授权响应来自另一个服务器，已忽略',
  deniedInBrowser: '已在浏览器中拒绝授权',
  authFailed: (reason: string) => `授权失败：${reason}`,
  noCode: '授权响应缺少 code',
  tokenFailed: (reason: string) => `令牌请求失败：${reason}`,
  errorNote: (message: string) => `\n[错误] ${message}\n`,
  exitNote: (code: number) => `[退出码 ${code}]\n`,
  outputClipped: '\n…（输出已截断）',
  proposedAnswer: (command: string) => `建议运行 \`${command}\``,
  notRunForModel: (command: string) => `我没有运行 \`${command}\`。`,
  ranForModel: (line: string, code: number, output: string) => `我运行了 \`${line}\`，退出码 ${code}，输出：\n${output}`,
  systemPrompt:
    '你是 Scriptorium 命令行助手，帮助开发者理解代码、排查问题。回答简洁，使用与用户相同的语言。需要在用户的项目目录里运行命令时，调用 run_command 提出一条命令：用户批准后才会运行，输出会在下一条消息里给你。',
};

export type CliMessages = typeof zh;

const en: CliMessages = {
  notSignedIn: 'Not signed in: run scriptorium login first',
  signInAgain: 'The sign-in has ended: run scriptorium login again',
  signInAgainBecause: (reason: string) => `${reason}; run scriptorium login again`,
  inputEnded: (missing: string) => `The input ended before the ${missing}`,
  signedIn: (server: string, username: string) => `Signed in to ${server} as ${username}\n`,
  usernamePrompt: 'Username: ',
  username: 'username',
  passwordPrompt: 'Password: ',
  password: 'password',
  signInFailed: (status: number) => `Sign-in failed (HTTP ${status})`,
  uploadFailedStatus: (status: number) => `Uploading the trajectory failed (HTTP ${status})`,
  uploadFailed: (reason: string) => `Uploading the trajectory failed: ${reason}`,
  help: `Scriptorium command-line assistant

  scriptorium login [--server URL] [--no-browser]     sign in by authorising in the browser (OAuth; prints the address)
  scriptorium login --password [--username NAME]      sign in with user name and password (no browser; password asked or SCRIPTORIUM_PASSWORD)
  scriptorium chat  [--project NAME] [--allow-browser-commands]
                                                     chat: type a question; !command runs a command; /help; /exit ends
                                                     a command the assistant proposes runs only once you type y in the terminal
                                                     (approved in the browser, it still asks); a command the browser sends asks y too
      --allow-browser-commands                       the browser's commands and approvals run without asking; anyone holding a token of
                                                     your account can then run commands here: use it only where you trust both
  scriptorium run   [--project NAME] -- <command…>    run one command and record it: several arguments run as given, with no
                                                     shell; one argument is a whole command line ("npm test && echo ok") for the shell
  scriptorium whoami | logout
  --lang zh|en                                       the language of the output (LANG by default)

Each session is recorded as a trajectory (/cli/trajectories) and shown live as an engineer session at /engineer, where
messages and commands can be sent and the assistant's proposals approved or declined.
`,
  chatHelp: `Type a question; !command runs a command (e.g. !npm test); /help shows this; /exit ends the session (Ctrl-C too).
The assistant may propose a command: it runs in your own shell, unsandboxed, so only once you type y in the terminal; Enter or anything else declines. "Decline" in the browser declines; "Run it" there still asks here.
A command sent from the browser asks for y in the terminal too. A chat started with --allow-browser-commands asks neither: the browser's commands and approvals run at once.\n`,
  chatTitle: (project: string) => `${project} · chat`,
  chatGreeting: (project: string) => `Scriptorium command-line assistant (${project}). Type a question; !command runs a command; /help; /exit ends.\n`,
  browserMayRun: 'Note: commands from the browser run without asking (--allow-browser-commands).\n',
  watchLive: (url: string) => `Watch live: ${url}\n`,
  proposed: (command: string) => `The assistant proposes: ${command}  Run it? [y/N] `,
  fromBrowser: (command: string) => `Run the command the browser sent: ${command}  Run it? [y/N] `,
  browserVerdict: (approved: boolean) => `\n[browser] ${approved ? 'approved' : 'declined'}\n`,
  browserApproved: '\n[browser] approved: it runs once you confirm here\n',
  declinedResult: (command: string) => `Declined: ${command}`,
  declined: 'Declined; the command did not run.\n',
  alreadyAnswered: 'This proposal was already answered; this answer is ignored',
  recorded: (count: number, url: string) => `\nSession recorded, ${count} events: ${url}\n`,
  exitCode: (code: number) => `exit code ${code}`,
  browserLabel: '[browser]',
  terminalRefused: 'The terminal declined to run the command the browser sent',
  runUsage: 'Usage: scriptorium run [--project NAME] -- <command…>',
  signedOut: 'Signed out\n',
  signedOutOnServer: 'Signed out; this sign-in is revoked on the server\n',
  signedOutLocally: (reason: string) =>
    `Removed the token saved here, but the server was not told (${reason}): the sign-in stays valid until it expires; revoke it under “Authorised apps” in the account panel on the web page`,
  serverUnreachable: (server: string) => `cannot reach ${server}`,
  serverAnswered: (status: number) => `the server answered HTTP ${status}`,
  usage: (commands: string) => `Usage: scriptorium <${commands}> (scriptorium --help for help)`,
  chatTask: (project: string) => `scriptorium chat (${project})`,
  runTask: (project: string) => `scriptorium run (${project})`,
  syncFailed: (reason: string) => `Syncing the engineer session failed: ${reason}`,
  cannotReach: (server: string, reason: string) => `Cannot reach ${server}: ${reason}`,
  noOAuth: (server: string, status: number) => `${server} offers no OAuth sign-in (HTTP ${status}); use scriptorium login --password instead`,
  noPkce: 'The server does not support PKCE S256; use scriptorium login --password instead',
  authTimedOut: 'Waited too long for the browser to authorise; run scriptorium login again',
  openToAuthorise: (url: string) => `Open this address in a browser to authorise the command-line assistant:\n\n  ${url}\n\n`,
  otherIssuer: 'The authorisation answer came from another server and was ignored',
  deniedInBrowser: 'The authorisation was declined in the browser',
  authFailed: (reason: string) => `The authorisation failed: ${reason}`,
  noCode: 'The authorisation answer has no code',
  tokenFailed: (reason: string) => `The token request failed: ${reason}`,
  errorNote: (message: string) => `\n[error] ${message}\n`,
  exitNote: (code: number) => `[exit code ${code}]\n`,
  outputClipped: '\n… (output cut)',
  proposedAnswer: (command: string) => `Proposed to run \`${command}\``,
  notRunForModel: (command: string) => `I did not run \`${command}\`.`,
  ranForModel: (line: string, code: number, output: string) => `I ran \`${line}\`, exit code ${code}, output:\n${output}`,
  systemPrompt:
    'You are the Scriptorium command-line assistant, helping developers understand code and track down problems. Answer briefly, in the language the user writes in. When a command needs to run in the user\'s project directory, call run_command to propose one: it runs only once the user approves it, and its output comes to you in the next message.',
};

export const cliMessages = (language: CliLanguage): CliMessages => (language === 'en' ? en : zh);
