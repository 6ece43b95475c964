/**
 * Every refusal the server can give, by a stable code. The Chinese text is what the wire carries as
 * `detail` (the spec's catalogue, byte for byte); the English text is what a client shows in English.
 * Placeholders are `{name}`; `errorText` fills them, and the types make a caller pass exactly those.
 */

interface Texts {
  zh: string;
  en: string;
}

export const ERROR_TEXTS = {
  // The spec's catalogue (§8) and the request as a whole.
  'http.bad_request': { zh: '请求错误', en: 'Bad request' },
  'http.not_found': { zh: '资源未找到', en: 'Resource not found' },
  'http.method_not_allowed': { zh: '该路径不支持此请求方法', en: 'This path does not take this method' },
  'http.internal': { zh: '服务器内部错误', en: 'Internal server error' },
  'storage.full': { zh: '服务器存储空间已满，暂时无法保存，请联系管理员', en: 'The server’s storage is full, so nothing could be saved; please contact an administrator' },
  'http.invalid_json': { zh: '请求体不是有效的 JSON', en: 'The request body is not valid JSON' },
  'http.body_too_large': { zh: '请求体过大', en: 'The request body is too large' },
  'http.unsupported_media_type': { zh: '不支持的请求内容类型', en: 'Unsupported content type' },
  'auth.unauthenticated': { zh: '认证失败，请重新登录', en: 'Authentication failed, please log in again' },
  'auth.forbidden': { zh: '权限不足，无法访问', en: 'You do not have permission to access this' },
  'auth.scope_insufficient': { zh: '该应用的授权范围不包括此操作', en: 'This app’s authorisation does not cover this' },
  'budget.exhausted': { zh: 'Token使用额度已用尽，请联系管理员进行充值', en: 'Your token allowance is used up; please ask an administrator to top it up' },
  'budget.busy': { zh: '额度正被进行中的请求占用，请稍后再试', en: 'What is left of your allowance is held by calls still running; try again shortly' },

  // Validation: every zod issue gets one of these, with the bounds as params.
  'validation.failed': { zh: '请求数据验证失败', en: 'The request data is invalid' },
  'validation.required': { zh: '缺少必填字段', en: 'This field is required' },
  'validation.invalid_type': { zh: '类型不正确，应为 {expected}', en: 'Wrong type, expected {expected}' },
  'validation.too_small': { zh: '不能小于 {min}', en: 'Must be at least {min}' },
  'validation.too_small_string': { zh: '至少 {min} 个字符', en: 'Must be at least {min} characters' },
  'validation.too_small_array': { zh: '至少 {min} 项', en: 'Must have at least {min} items' },
  'validation.too_small_exclusive': { zh: '必须大于 {min}', en: 'Must be greater than {min}' },
  'validation.too_big': { zh: '不能大于 {max}', en: 'Must be at most {max}' },
  'validation.too_big_exclusive': { zh: '必须小于 {max}', en: 'Must be less than {max}' },
  'validation.too_big_string': { zh: '最多 {max} 个字符', en: 'Must be at most {max} characters' },
  'validation.too_big_array': { zh: '最多 {max} 项', en: 'Must have at most {max} items' },
  'validation.invalid_value': { zh: '只能是 {values}', en: 'Must be one of {values}' },
  'validation.invalid_format': { zh: '格式不正确（{format}）', en: 'Invalid format ({format})' },
  'validation.not_multiple_of': { zh: '必须是 {divisor} 的倍数', en: 'Must be a multiple of {divisor}' },
  'validation.unrecognized_keys': { zh: '不认识的字段：{keys}', en: 'Unknown fields: {keys}' },
  'validation.invalid_key': { zh: '字段名不正确', en: 'Invalid field name' },
  'validation.invalid_union': { zh: '不符合任何一种允许的格式', en: 'Matches none of the allowed shapes' },
  'validation.invalid_element': { zh: '包含不正确的元素', en: 'Contains an invalid element' },
  'validation.custom': { zh: '数据不正确', en: 'Invalid value' },

  // Paging, for every listing.
  'paging.skip_integer': { zh: 'skip 需为整数', en: 'skip must be a whole number' },
  'paging.skip_negative': { zh: 'skip 不能小于 {min}', en: 'skip cannot be less than {min}' },
  'paging.limit_integer': { zh: 'limit 需为整数', en: 'limit must be a whole number' },
  'paging.limit_too_small': { zh: 'limit 至少为 {min}', en: 'limit must be at least {min}' },
  'paging.limit_too_large': { zh: 'limit 最多为 {max}', en: 'limit can be at most {max}' },

  // Accounts and sign-in.
  'auth.invalid_credentials': { zh: '用户名或密码错误', en: 'Wrong user name or password' },
  'auth.too_many_attempts': { zh: '登录尝试过于频繁，请 {minutes} 分钟后再试', en: 'Too many sign-in attempts; try again in {minutes} minutes' },
  'auth.too_many_registrations': { zh: '注册过于频繁，请 {minutes} 分钟后再试', en: 'Too many accounts registered from this address; try again in {minutes} minutes' },
  'auth.account_inactive': { zh: '账户已停用，请联系管理员', en: 'This account is deactivated; please contact an administrator' },
  'auth.current_password_wrong': { zh: '当前密码不正确', en: 'The current password is wrong' },
  'auth.busy': { zh: '登录和注册请求过多，服务器正忙，请稍后重试', en: 'The server is busy with too many sign-ins and sign-ups; please try again shortly' },
  'auth.throttle_unavailable': { zh: '登录服务暂时不可用，请稍后重试', en: 'Sign-in is unavailable for a moment; please try again shortly' },
  'auth.account_syncing': { zh: '账户已创建，正在同步，请稍后重试', en: 'The account was created and is syncing; please try again shortly' },
  'auth.username_taken': { zh: '用户名已被注册', en: 'This user name is already taken' },
  'auth.email_taken': { zh: '该邮箱已被注册', en: 'This e-mail address is already registered' },
  'auth.email_changed': { zh: '该邮箱已不是此账户的邮箱', en: 'This e-mail address no longer belongs to this account' },
  'auth.code_missing': { zh: '验证码无效，请先获取验证码', en: 'Invalid code; please request a verification code first' },
  'auth.code_expired': { zh: '验证码已过期，请重新获取', en: 'The verification code has expired; please request a new one' },
  'auth.code_locked': { zh: '验证码错误次数过多，请重新获取', en: 'Too many wrong codes; please request a new one' },
  'auth.code_wrong': { zh: '验证码错误，还可尝试 {left} 次', en: 'Wrong verification code; {left} attempts left' },
  'auth.resend_too_soon': { zh: '请在 {seconds} 秒后再重新发送验证码', en: 'Please wait {seconds} seconds before sending another code' },
  'auth.invite_required': { zh: '请输入邀请码', en: 'Please enter an invite code' },
  'auth.email_code_required': { zh: '请输入邮箱验证码', en: 'Please enter the e-mail verification code' },
  'auth.invite_invalid': { zh: '邀请码无效', en: 'Invalid invite code' },
  'auth.invite_used': { zh: '邀请码已被使用', en: 'This invite code has already been used' },
  'auth.invite_exists': { zh: '邀请码已存在', en: 'This invite code already exists' },
  'auth.username_required': { zh: '请输入用户名', en: 'Please enter a user name' },
  'auth.username_forbidden_characters': { zh: '用户名不能包含控制字符、方向控制字符或无效字符', en: 'A user name cannot contain control characters, direction controls or invalid characters' },
  'auth.username_invalid': { zh: '用户名需为 3–32 个字符，只能包含文字、数字、下划线、点或连字符', en: 'A user name has 3–32 characters: letters, digits, underscores, dots or hyphens' },
  'auth.email_required': { zh: '请输入邮箱', en: 'Please enter an e-mail address' },
  'auth.email_too_long': { zh: '邮箱过长', en: 'The e-mail address is too long' },
  'auth.email_invalid': { zh: '邮箱格式不正确', en: 'This is not a valid e-mail address' },
  'auth.nickname_empty': { zh: '昵称不能为空', en: 'The nickname cannot be empty' },
  'auth.nickname_too_long': { zh: '昵称最多 {max} 个字符', en: 'A nickname can be at most {max} characters' },
  'auth.password_required': { zh: '请输入密码', en: 'Please enter a password' },
  'auth.password_too_short': { zh: '密码至少 {min} 个字符', en: 'A password needs at least {min} characters' },
  'auth.password_too_long': { zh: '密码最多 {max} 个字符', en: 'A password can be at most {max} characters' },
  'auth.code_required': { zh: '请输入 6 位验证码', en: 'Please enter the 6-digit code' },
  'auth.code_format': { zh: '请输入 6 位数字验证码', en: 'The code is 6 digits' },
  'auth.nothing_to_change': { zh: '没有要修改的字段', en: 'There is nothing to change' },
  'auth.sign_in_gone': { zh: '该登录不存在或已撤销', en: 'This sign-in does not exist or was revoked' },
  'auth.sign_in_exists': { zh: '该登录已记录', en: 'This sign-in is already recorded' },
  'auth.unknown_client': { zh: '未登记的应用：{client}', en: 'Not a registered app: {client}' },
  'mail.send_failed': { zh: '邮件发送失败，请稍后重试', en: 'The e-mail could not be sent; please try again later' },
  'user.not_found': { zh: '未找到用户信息', en: 'User not found' },
  'user.not_found_some': { zh: '未找到用户信息：{ids}', en: 'Users not found: {ids}' },
  'user.cannot_deactivate_self': { zh: '不能停用自己的账户', en: 'You cannot deactivate your own account' },
  'admin.projection_unknown': { zh: '未找到读模型：{name}', en: 'No read model named {name}' },
  'admin.rebuild_elsewhere': { zh: '读模型由单独的投影进程维护，请在那里运行 npm run projections -- rebuild', en: 'Read models are kept by a separate projector; run npm run projections -- rebuild there' },
  'admin.users_required': { zh: '请选择用户', en: 'Please choose users' },
  'admin.users_empty': { zh: '请至少选择一个用户', en: 'Please choose at least one user' },
  'admin.users_too_many': { zh: '一次最多 {max} 个用户', en: 'At most {max} users at a time' },
  'admin.is_active_invalid': { zh: 'is_active 需为 true 或 false', en: 'is_active must be true or false' },
  'admin.level_invalid': { zh: '等级只能是 basic、premium、vip 或 admin', en: 'The level must be basic, premium, vip or admin' },
  'admin.daily_limit_choice_invalid': { zh: 'daily_limit 只能是 level_default 或 keep', en: 'daily_limit must be level_default or keep' },
  'admin.daily_limit_required': { zh: '请输入每日额度', en: 'Please enter the daily allowance' },
  'admin.daily_limit_integer': { zh: '每日额度需为整数', en: 'The daily allowance must be a whole number' },
  'admin.daily_limit_negative': { zh: '每日额度不能小于 {min}', en: 'The daily allowance cannot be less than {min}' },
  'admin.daily_limit_too_large': { zh: '每日额度过大', en: 'The daily allowance is too large' },
  'admin.invite_count_required': { zh: '请输入生成数量', en: 'Please enter how many codes to generate' },
  'admin.invite_count_integer': { zh: '数量需为整数', en: 'The number must be a whole number' },
  'admin.invite_count_too_small': { zh: '至少生成 {min} 个', en: 'Generate at least {min}' },
  'admin.invite_count_too_large': { zh: '一次最多生成 {max} 个', en: 'Generate at most {max} at a time' },
  'admin.invite_status_invalid': { zh: 'status 只能是 all、unused、used 或 revoked', en: 'status must be all, unused, used or revoked' },
  'admin.invite_not_found': { zh: '邀请码不存在', en: 'No such invite code' },
  'admin.invite_already_used': { zh: '邀请码已被使用，无法作废', en: 'This invite code has been used and can no longer be revoked' },
  'admin.mail_to_required': { zh: '请输入收件人', en: 'Please enter a recipient' },
  'admin.mail_subject_required': { zh: '请输入主题', en: 'Please enter a subject' },
  'admin.mail_subject_empty': { zh: '主题不能为空', en: 'The subject cannot be empty' },
  'admin.mail_subject_too_long': { zh: '主题最多 {max} 个字符', en: 'The subject can be at most {max} characters' },
  'admin.mail_content_required': { zh: '请输入内容', en: 'Please enter the content' },
  'admin.mail_content_empty': { zh: '内容不能为空', en: 'The content cannot be empty' },
  'admin.mail_content_too_long': { zh: '内容最多 {max} 个字符', en: 'The content can be at most {max} characters' },
  'admin.user_id_mismatch': { zh: 'user_id 与路径中的用户不一致', en: 'user_id does not match the user in the path' },
  'budget.amount_required': { zh: '请输入追加额度', en: 'Please enter the amount to add' },
  'budget.amount_positive': { zh: '追加额度必须大于 0', en: 'The amount to add must be greater than 0' },
  'budget.amount_too_large': { zh: '追加额度过大', en: 'The amount to add is too large' },
  'budget.expiry_in_past': { zh: '会员到期时间必须晚于当前时间', en: 'The membership expiry must be in the future' },
  'budget.expiry_invalid': { zh: '会员到期时间格式不正确', en: 'The membership expiry is not a valid time' },
  'preferences.review_plans_required': { zh: '请说明是否在研究前确认计划（review_plans）', en: 'Please say whether plans are reviewed before research (review_plans)' },
  'preferences.model_unavailable': { zh: '不可用的模型: {model}', en: 'Model not available: {model}' },
  'preferences.model_required': { zh: '请选择模型', en: 'Please choose a model' },

  // Conversations, replies and the canvas.
  'conversation.not_found': { zh: '会话不存在', en: 'Conversation not found' },
  'conversation.exists': { zh: '会话已存在', en: 'The conversation already exists' },
  'conversation.id_invalid': { zh: '会话 ID 格式不正确', en: 'The conversation ID is malformed' },
  'conversation.client_id_invalid': { zh: 'client_id 格式不正确', en: 'client_id is malformed' },
  'conversation.history_cursor_invalid': { zh: '历史分页游标无效', en: 'Invalid history paging cursor' },
  'conversation.mode_invalid': { zh: 'mode 只能是 0 或 1', en: 'mode must be 0 or 1' },
  'conversation.status_invalid': { zh: 'status 只能是 active 或 archived', en: 'status must be active or archived' },
  'conversation.search_enabled_required': { zh: '请提供 search_enabled', en: 'search_enabled is required' },
  'conversation.agent_invalid': { zh: 'agent 只能是 {values}', en: 'agent must be one of {values}' },
  'conversation.action_invalid': { zh: 'action 只能是 pause、resume 或 send', en: 'action must be pause, resume or send' },
  'conversation.name_required': { zh: '请输入名称', en: 'Please enter a name' },
  'conversation.name_empty': { zh: '会话名称不能为空', en: 'The conversation name cannot be empty' },
  'conversation.name_too_long': { zh: '名称最多 {max} 个字符', en: 'The name can be at most {max} characters' },
  'conversation.title_required': { zh: '请输入标题', en: 'Please enter a title' },
  'conversation.title_empty': { zh: '标题不能为空', en: 'The title cannot be empty' },
  'conversation.title_too_long': { zh: '标题最多 {max} 个字符', en: 'The title can be at most {max} characters' },
  'conversation.message_required': { zh: '请输入消息', en: 'Please enter a message' },
  'conversation.message_empty': { zh: '消息不能为空', en: 'The message cannot be empty' },
  'conversation.message_too_long': { zh: '消息最长 {max} 个字符', en: 'A message can be at most {max} characters' },
  'conversation.busy': { zh: '正在处理上一条消息，请稍候或先暂停', en: 'The previous message is still being handled; please wait or pause it first' },
  'conversation.awaiting_clarification': { zh: '请先回答澄清问题', en: 'Please answer the clarifying questions first' },
  'conversation.awaiting_plan': { zh: '研究计划正在等待确认：请先开始或暂停它', en: 'The research plan is waiting for review: start or pause it first' },
  'conversation.nothing_to_resume': { zh: '没有可以继续的回复', en: 'There is no reply to resume' },
  'conversation.reply_ended': { zh: '该回复已结束', en: 'This reply has already ended' },
  'conversation.questions_empty': { zh: '澄清问题不能为空', en: 'The clarifying questions cannot be empty' },
  'conversation.no_pending_questions': { zh: '当前没有待回答的澄清问题', en: 'There are no clarifying questions to answer' },
  'conversation.unknown_question': { zh: '未知的问题: {id}', en: 'Unknown question: {id}' },
  'conversation.answers_empty': { zh: '请至少回答一个问题', en: 'Please answer at least one question' },
  'conversation.plan_empty': { zh: '研究计划不能为空', en: 'The research plan cannot be empty' },
  'conversation.plan_step_not_found': { zh: '计划步骤不存在', en: 'Plan step not found' },
  'conversation.plan_step_empty': { zh: '第 {step} 步没有内容', en: 'Step {step} is empty' },
  'conversation.plan_step_required': { zh: '每个步骤都需要描述', en: 'Every step needs a description' },
  'conversation.plan_step_too_long': { zh: '步骤描述最多 {max} 个字符', en: 'A step description can be at most {max} characters' },
  'conversation.plan_query_too_long': { zh: '检索词最多 {max} 个字符', en: 'A search query can be at most {max} characters' },
  'conversation.plan_too_many_queries': { zh: '每个步骤最多 {max} 个检索词', en: 'A step can have at most {max} search queries' },
  'conversation.plan_steps_required': { zh: '请提供研究计划的步骤', en: 'Please give the plan\'s steps' },
  'conversation.plan_too_many_steps': { zh: '研究计划最多 {max} 个步骤', en: 'A research plan can have at most {max} steps' },
  'conversation.no_plan': { zh: '当前没有等待确认的研究计划', en: 'No research plan is waiting to be reviewed' },
  'conversation.plan_running': { zh: '研究计划已经开始执行，不能再修改', en: 'The research plan is already running and can no longer be changed' },
  'conversation.plan_countdown_stopped': { zh: '计划的倒计时已停止，等待手动开始', en: 'The plan\'s countdown was stopped; it waits to be started' },
  'conversation.writing': { zh: '正在写作中', en: 'Writing is in progress' },
  'conversation.writing_save_later': { zh: '正在写作中，请稍后再保存', en: 'Writing is in progress; please save later' },
  'conversation.no_report_for_feedback': { zh: '还没有可供反馈的报告', en: 'There is no report to give feedback on yet' },
  'conversation.no_pending_feedback': { zh: '当前没有待反馈的报告', en: 'No report is waiting for feedback' },
  'conversation.feedback_text_required': { zh: '请填写修改意见', en: 'Please write what should change' },
  'conversation.feedback_option_invalid': { zh: 'option 只能是 continue、satisfied 或 manual_feedback', en: 'option must be continue, satisfied or manual_feedback' },
  'conversation.feedback_empty': { zh: '反馈不能为空', en: 'The feedback cannot be empty' },
  'conversation.rating_version_required': { zh: '请提供报告版本', en: 'The report version is required' },
  'conversation.rating_invalid': { zh: 'rating 只能是 helpful 或 not_helpful', en: 'rating must be helpful or not_helpful' },
  'conversation.rating_comment_too_long': { zh: '意见最长 {max} 个字符', en: 'A comment can be at most {max} characters' },
  'conversation.no_report': { zh: '画布中还没有报告', en: 'The canvas has no report yet' },
  'conversation.edit_needs_text': { zh: '修改指令和选中文本都不能为空', en: 'Both the instruction and the selected text are required' },
  'conversation.edit_request_id_invalid': { zh: 'request_id 格式不正确', en: 'request_id is malformed' },
  'conversation.edit_text_required': { zh: '请输入修改指令', en: 'Please enter an instruction' },
  'conversation.edit_text_empty': { zh: '修改指令不能为空', en: 'The instruction cannot be empty' },
  'conversation.edit_snippet_required': { zh: '请选择要修改的文本', en: 'Please select the text to change' },
  'conversation.edit_snippet_empty': { zh: '选中的文本不能为空', en: 'The selected text cannot be empty' },
  'conversation.edit_stale_selection': { zh: '报告已有新版本，请重新选择要修改的文本', en: 'The report has a newer version; please select the text again' },
  'conversation.edit_stale_version': { zh: '报告已有新版本，请在最新版本上修改', en: 'The report has a newer version; please edit the latest one' },
  'conversation.snippet_not_found': { zh: '选中的文本不在当前版本中', en: 'The selected text is not in the current version' },
  'conversation.snippet_moved': { zh: '选中的文本已不在原来的位置，请重新选择', en: 'The selected text is no longer where it was; please select it again' },
  'conversation.report_empty': { zh: '报告内容不能为空', en: 'The report cannot be empty' },
  'conversation.report_required': { zh: '请提供报告内容', en: 'The report content is required' },
  'conversation.report_too_long': { zh: '报告过长', en: 'The report is too long' },
  'conversation.from_version_required': { zh: '请提供 from_version', en: 'from_version is required' },
  'conversation.version_not_found': { zh: '该版本不存在', en: 'This version does not exist' },
  'conversation.report_version_not_found': { zh: '报告版本不存在', en: 'Report version not found' },
  'conversation.queue_unavailable': { zh: '任务队列不可用，请稍后重试', en: 'The job queue is unavailable; please try again later' },
  'context.not_found': { zh: '上下文不存在', en: 'Context not found' },
  'context.exists': { zh: '上下文已存在', en: 'This context is already added' },
  'context.id_required': { zh: '请提供 context_id', en: 'context_id is required' },
  'context.too_many': { zh: '每个会话最多添加 {max} 个上下文，请先删除不需要的', en: 'A conversation can have at most {max} contexts; please remove some first' },
  'context.instructions_too_long': { zh: '补充要求最长 {max} 个字符', en: 'Additional instructions can be at most {max} characters' },
  'context.round_integer': { zh: 'round 必须是整数', en: 'round must be a whole number' },
  'context.length_invalid': { zh: 'length 只能是 short、medium 或 long', en: 'length must be short, medium or long' },
  'context.style_invalid': { zh: 'style 只能是 academic、professional 或 popular', en: 'style must be academic, professional or popular' },
  'context.language_invalid': { zh: 'language 只能是 zh 或 en', en: 'language must be zh or en' },

  // Agent failures recorded into a reply.
  'agent.model_busy': { zh: '模型服务繁忙，请稍后重试', en: 'The model service is busy; please try again later' },
  'agent.model_timeout': { zh: '模型响应超时，请稍后重试', en: 'The model took too long to answer; please try again later' },
  'agent.model_auth': { zh: '模型服务认证失败，请联系管理员检查配置', en: 'The model service rejected our credentials; please ask an administrator to check the configuration' },
  'agent.model_bad_response': { zh: '模型返回了无法解析的数据', en: 'The model returned data that could not be read' },
  'agent.model_unavailable': { zh: '模型服务暂时不可用，请稍后重试', en: 'The model service is unavailable; please try again later' },
  'agent.model_refused': {
    zh: '模型服务拒绝了这次请求：{reason}。模型没有作答，请联系管理员检查模型配置',
    en: 'The model service refused the request: {reason}. The model did not answer; please ask an administrator to check the model’s configuration',
  },
  'agent.stopped': { zh: '已停止生成', en: 'Generation stopped' },
  'agent.failed': { zh: '生成回复时出错', en: 'Something went wrong while generating the reply' },

  // The socket.
  'socket.binary': { zh: '只接受 JSON 文本消息', en: 'Only JSON text messages are accepted' },
  'socket.invalid_json': { zh: '消息不是有效的 JSON', en: 'The message is not valid JSON' },
  'socket.not_object': { zh: '消息必须是 JSON 对象', en: 'The message must be a JSON object' },
  'socket.invalid_message': { zh: '消息格式不正确: {issues}', en: 'Malformed message: {issues}' },
  'socket.unsupported_type': { zh: '不支持的消息类型: {type}', en: 'Unsupported message type: {type}' },
  'socket.session_id_invalid': { zh: 'session_id 格式不正确', en: 'session_id is malformed' },
  'socket.agent_invalid': { zh: 'agent 不正确', en: 'Unknown agent' },
  'socket.file_url_invalid': { zh: 'file_url 不是上传文件的地址', en: 'file_url is not the address of an uploaded file' },
  'socket.failed': { zh: '消息处理失败', en: 'The message could not be handled' },
  'socket.rate_limited': { zh: '消息过于频繁，请稍后再试', en: 'Too many messages; please slow down' },

  // Notes.
  'notes.not_found': { zh: '笔记不存在', en: 'Note not found' },
  'notes.id_invalid': { zh: '笔记 ID 格式不正确', en: 'The note ID is malformed' },
  'notes.name_required': { zh: '请提供笔记名称', en: 'The note name is required' },
  'notes.content_required': { zh: '请提供笔记内容', en: 'The note content is required' },
  'notes.revision_required': { zh: '请提供编辑起点的 revision', en: 'The revision the edit starts from is required' },
  'notes.position_invalid': { zh: 'position 只能是 before、after 或 inside', en: 'position must be before, after or inside' },
  'notes.name_empty': { zh: '笔记名称不能为空', en: 'The note name cannot be empty' },
  'notes.name_too_long': { zh: '笔记名称最多 {max} 个字符', en: 'A note name can be at most {max} characters' },
  'notes.content_too_long': { zh: '笔记最长 {max} 个字符', en: 'A note can be at most {max} characters' },
  'notes.too_many': { zh: '笔记最多 {max} 篇，请先删除不需要的笔记', en: 'You can have at most {max} notes; please delete some first' },
  'notes.move_into_itself': { zh: '不能把笔记移动到它自己或它的子笔记下', en: 'A note cannot be moved into itself or one of its children' },
  'notes.edited_elsewhere': { zh: '笔记已在别处修改，请刷新后再编辑', en: 'The note was changed elsewhere; please reload before editing' },

  // Sharing.
  'share.gone': { zh: '分享不存在或已过期', en: 'This share does not exist or has expired' },
  'share.token_invalid': { zh: '分享链接格式不正确', en: 'The share link is malformed' },
  'share.exists': { zh: '分享已存在', en: 'The share already exists' },
  'share.expiry_range': { zh: '有效期需为 1 到 {max} 天', en: 'The validity must be between 1 and {max} days' },
  'share.include_private_invalid': { zh: 'include_private 需为 true 或 false', en: 'include_private must be true or false' },
  'share.expiry_whole_days': { zh: '有效期需为整数天', en: 'The validity must be a whole number of days' },
  'share.expiry_too_short': { zh: '有效期至少 {min} 天', en: 'The validity must be at least {min} days' },
  'share.expiry_too_long': { zh: '有效期最多 {max} 天', en: 'The validity can be at most {max} days' },
  'share.title_too_long': { zh: '标题最多 {max} 个字符', en: 'The title can be at most {max} characters' },
  'share.description_too_long': { zh: '描述最多 {max} 个字符', en: 'The description can be at most {max} characters' },
  'share.download_not_allowed': { zh: '分享者未允许下载', en: 'The owner of this share does not allow downloads' },

  // OAuth (the consent page, the token and revocation endpoints). English texts stay ASCII: they are
  // the RFC 6749 error_description, which allows nothing else.
  'oauth.invalid_request': { zh: 'OAuth 请求缺少参数或参数无效', en: 'The OAuth request is missing a parameter or has an invalid one' },
  'oauth.invalid_client': { zh: '未登记的应用（client_id 无效）', en: 'Unknown client: the client_id is not registered' },
  'oauth.invalid_redirect': { zh: '回调地址未在该应用登记', en: 'The redirect_uri is not registered for this client' },
  'oauth.unsupported_response_type': { zh: '只支持 response_type=code', en: 'Only response_type=code is supported' },
  'oauth.pkce_required': { zh: '需要 PKCE：code_challenge 与 code_challenge_method=S256', en: 'PKCE is required: code_challenge with code_challenge_method=S256' },
  'oauth.invalid_scope': { zh: '申请的权限范围无效', en: 'The requested scope is not supported' },
  'oauth.unsupported_grant_type': { zh: '只支持 authorization_code 与 refresh_token', en: 'Only the authorization_code and refresh_token grants are supported' },
  'oauth.invalid_grant': { zh: '授权码或刷新令牌无效', en: 'The authorization code or refresh token is invalid' },
  'oauth.code_expired': { zh: '授权码已过期，请重新授权', en: 'The authorization code has expired; authorize again' },
  'oauth.code_reused': { zh: '授权码已被使用，由它签发的令牌已全部吊销', en: 'The authorization code was already used; the tokens it issued are revoked' },
  'oauth.redirect_mismatch': { zh: 'redirect_uri 与授权请求时不一致', en: 'The redirect_uri differs from the one in the authorization request' },
  'oauth.pkce_mismatch': { zh: 'code_verifier 与 code_challenge 不符', en: 'The code_verifier does not match the code_challenge' },
  'oauth.refresh_expired': { zh: '刷新令牌已过期，请重新登录', en: 'The refresh token has expired; sign in again' },
  'oauth.grant_revoked': { zh: '授权已撤销，请重新登录', en: 'The authorization was revoked; sign in again' },
  'oauth.account_inactive': { zh: '账户已停用，无法签发令牌', en: 'The account is deactivated; no token can be issued' },
  'oauth.grant_gone': { zh: '授权不存在或已撤销', en: 'This authorization does not exist or was revoked' },

  // Files, uploads and exports.
  'files.not_found': { zh: '文件不存在', en: 'File not found' },
  'files.id_invalid': { zh: '文件 ID 格式不正确', en: 'The file ID is malformed' },
  'files.too_large': { zh: '文件大小不能超过 {mb} MB', en: 'A file can be at most {mb} MB' },
  'files.form_malformed': { zh: '上传的表单不完整或格式错误', en: 'The upload form is incomplete or malformed' },
  'files.one_file_only': { zh: '每次只能上传一个文件，字段名为 file', en: 'Upload one file at a time, in the field named file' },
  'files.form_too_large': { zh: '表单字段过多或过长', en: 'Too many or too long form fields' },
  'files.missing': { zh: '请选择要上传的文件', en: 'Please choose a file to upload' },
  'files.empty': { zh: '文件是空的', en: 'The file is empty' },
  'files.no_text': { zh: '文件中没有可提取的文字', en: 'The file contains no text that can be extracted' },
  'files.pdf_no_text': { zh: '未能从 PDF 中提取到文字（扫描版 PDF 需先做文字识别）', en: 'No text could be extracted from the PDF (a scanned PDF needs text recognition first)' },
  'files.doc_unsupported': { zh: '不支持旧版 Word（.doc）文件，请另存为 .docx 后上传', en: 'Old Word (.doc) files are not supported; please save as .docx and upload again' },
  'files.extension_unsupported': { zh: '不支持 .{extension} 文件。支持的格式：TXT、Markdown、PDF、DOCX、HTML', en: '.{extension} files are not supported. Supported formats: TXT, Markdown, PDF, DOCX, HTML' },
  'files.type_unknown': { zh: '无法识别的文件类型。支持的格式：TXT、Markdown、PDF、DOCX、HTML', en: 'Unrecognised file type. Supported formats: TXT, Markdown, PDF, DOCX, HTML' },
  'files.encoding': { zh: '无法识别文本编码，请另存为 UTF-8 后再上传', en: 'The text encoding could not be recognised; please save as UTF-8 and upload again' },
  'files.html_encoding': { zh: '无法识别网页的文字编码，请另存为 UTF-8 后再上传', en: 'The web page encoding could not be recognised; please save as UTF-8 and upload again' },
  'files.type_mismatch': { zh: '文件内容与扩展名不符：名为 {claimed}，内容却是{actual}', en: 'The file content does not match its extension: named {claimed}, but the content is {actual}' },
  'files.pdf_encrypted': { zh: 'PDF 已加密，请先移除密码再上传', en: 'The PDF is encrypted; please remove the password before uploading' },
  'files.pdf_corrupt': { zh: 'PDF 文件已损坏，无法读取', en: 'The PDF file is damaged and cannot be read' },
  'files.docx_corrupt': { zh: 'DOCX 文件已损坏，无法读取', en: 'The DOCX file is damaged and cannot be read' },
  'files.docx_too_large': { zh: 'DOCX 解压后过大，无法处理', en: 'The DOCX file is too large once unpacked' },
  'files.archive_corrupt': { zh: '文件已损坏，无法读取其中的内容', en: 'The file is damaged and its content cannot be read' },
  'files.unreadable': { zh: '文件无法读取', en: 'The file cannot be read' },
  'files.too_complex': { zh: '文件内容过于复杂，无法在限定的内存和时间内读取', en: 'The file is too complex to read within the memory and time allowed' },
  'exports.no_font': {
    zh: 'PDF 导出暂不可用：服务器上没有中文字体。请安装 fonts-noto-cjk，或用环境变量 PDF_FONT_PATH 指定一个含中文字形的字体文件（字体集 .ttc 还需用 PDF_FONT_NAME 指定字体名）',
    en: 'PDF export is unavailable: the server has no Chinese font. Install fonts-noto-cjk, or set PDF_FONT_PATH to a font file with Chinese glyphs (a .ttc collection also needs PDF_FONT_NAME)',
  },
  'exports.markdown_too_large': { zh: 'Markdown 内容不能超过 {mb} MB', en: 'Markdown content can be at most {mb} MB' },
  'exports.markdown_required': { zh: '请提供 markdown_content', en: 'markdown_content is required' },
  'exports.markdown_empty': { zh: '内容不能为空', en: 'The content cannot be empty' },
  'engineer.role_invalid': { zh: 'role 只能是 system、developer、user、assistant 或 tool', en: 'role must be system, developer, user, assistant or tool' },
  'engineer.tools_invalid': { zh: 'tools 须为最多 64 个 {type: "function", function: {name, description?, parameters?}}；tool_choice 须为 none、auto、required 或指定函数', en: 'tools must be at most 64 {type: "function", function: {name, description?, parameters?}}; tool_choice must be none, auto, required or a named function' },
  'engineer.messages_required': { zh: '请提供 messages', en: 'messages is required' },
  'engineer.messages_empty': { zh: 'messages 不能为空', en: 'messages cannot be empty' },
  'engineer.content_invalid': { zh: 'content 须为字符串，或只含 text 片段（{type: "text", text}）的数组', en: 'content must be a string or an array of text parts ({type: "text", text})' },
  'engineer.stop_invalid': { zh: 'stop 须为非空字符串，或最多 4 个非空字符串的数组', en: 'stop must be a non-empty string or an array of at most 4 non-empty strings' },
  'engineer.n_unsupported': { zh: '只支持 n = 1', en: 'Only n = 1 is supported' },
  'engineer.model_not_found': { zh: '模型不存在：{model}', en: 'No such model: {model}' },

  // Speech.
  'speech.not_configured': { zh: '语音识别未配置（请管理员在“连接”中设置）', en: 'Speech recognition is not configured (an administrator sets it in Connections)' },
  'speech.file_missing': { zh: '请上传音频文件', en: 'Please upload an audio file' },
  'speech.too_large': { zh: '音频不能超过 10 MB', en: 'Audio can be at most 10 MB' },
  'speech.audio_only': { zh: '只支持音频文件', en: 'Only audio files are supported' },
  'speech.unavailable': { zh: '语音识别服务不可用', en: 'The speech recognition service is unavailable' },
  'speech.failed': { zh: '语音识别失败（{status}）', en: 'Speech recognition failed ({status})' },
  'speech.bad_response': { zh: '语音识别返回了无法解析的结果', en: 'Speech recognition returned a result that could not be read' },
  'speech.no_speech': { zh: '没有识别到语音内容', en: 'No speech was recognised' },

  // Cognition, collections and extraction.
  'cognition.not_found': { zh: '认知不存在', en: 'Cognition not found' },
  'cognition.id_invalid': { zh: '认知 ID 格式不正确', en: 'The cognition ID is malformed' },
  'cognition.query_too_long': { zh: '搜索词最多 {max} 个字符', en: 'The search can be at most {max} characters' },
  'cognition.scope_invalid': { zh: 'scope 只能是 public 或 mine', en: 'scope must be public or mine' },
  'cognition.nothing_to_change': { zh: '请至少修改一项', en: 'Please change at least one field' },
  'cognition.title_empty': { zh: '标题不能为空', en: 'The title cannot be empty' },
  'cognition.title_too_long': { zh: '标题最多 {max} 个字符', en: 'The title can be at most {max} characters' },
  'cognition.summary_too_long': { zh: '摘要最多 {max} 个字符', en: 'The summary can be at most {max} characters' },
  'cognition.too_many_tags': { zh: '标签最多 {max} 个', en: 'At most {max} tags' },
  'cognition.tag_too_long': { zh: '每个标签最多 {max} 个字符', en: 'Each tag can be at most {max} characters' },
  'collection.not_found': { zh: '收藏夹不存在', en: 'Collection not found' },
  'collection.id_invalid': { zh: '收藏夹 ID 格式不正确', en: 'The collection ID is malformed' },
  'collection.name_required': { zh: '请提供收藏夹名称', en: 'The collection name is required' },
  'collection.name_empty': { zh: '收藏夹名称不能为空', en: 'The collection name cannot be empty' },
  'collection.name_too_long': { zh: '收藏夹名称最多 {max} 个字符', en: 'A collection name can be at most {max} characters' },
  'collection.description_too_long': { zh: '描述最多 {max} 个字符', en: 'The description can be at most {max} characters' },
  'collection.full': { zh: '每个收藏夹最多 {max} 条认知', en: 'A collection can hold at most {max} cognitions' },
  'extraction.not_found': { zh: '提取任务不存在', en: 'Extraction not found' },
  'extraction.id_invalid': { zh: '提取任务 ID 格式不正确', en: 'The extraction ID is malformed' },
  'extraction.note_ids_required': { zh: '请提供 note_ids', en: 'note_ids is required' },
  'extraction.cognition_ids_required': { zh: '请提供 cognition_ids', en: 'cognition_ids is required' },
  'extraction.url_invalid': { zh: '请输入以 http:// 或 https:// 开头的网页地址', en: 'Please enter a web address starting with http:// or https://' },
  'extraction.url_too_long': { zh: '网页地址过长', en: 'The web address is too long' },
  'extraction.select_first': { zh: '请先选择文档', en: 'Please select documents first' },
  'extraction.too_many_notes': { zh: '最多只能选择5个文档进行认知提取', en: 'Select at most 5 documents to extract cognitions from' },
  'extraction.url_required': { zh: '请提供网页地址', en: 'Please give a web page address' },
  'extraction.too_few_cognitions': { zh: '至少选择 {min} 条认知进行综合', en: 'Select at least {min} cognitions to synthesise' },
  'extraction.too_many_cognitions': { zh: '最多选择 {max} 条认知进行综合', en: 'Select at most {max} cognitions to synthesise' },

  // Reading a web page (the fetcher's codes, infra/src/fetch/errors.ts).
  'fetch.timeout': { zh: '读取网页超时（{seconds} 秒）', en: 'Reading the page timed out ({seconds} s)' },
  'fetch.redirect_without_location': { zh: '网页返回 {status} 跳转但没有给出地址', en: 'The page answered a {status} redirect without saying where to' },
  'fetch.too_many_redirects': { zh: '网页跳转超过 {max} 次', en: 'The page redirected more than {max} times' },
  'fetch.unreachable': { zh: '无法连接 {host}', en: 'Could not connect to {host}' },
  'fetch.http_status': { zh: '网页返回 HTTP {status}', en: 'The page answered HTTP {status}' },
  'fetch.unsupported_type': { zh: '不支持读取此类型的内容：{type}', en: 'This kind of content cannot be read: {type}' },
  'fetch.untyped': { zh: '网页没有说明内容类型，且不是 HTML', en: 'The page does not say what it holds, and it is not HTML' },
  'fetch.unknown_encoding': { zh: '无法识别网页的文字编码', en: 'The page’s text encoding could not be recognised' },
  'fetch.connection_lost': { zh: '读取网页时连接中断', en: 'The connection broke while the page was being read' },
  'fetch.too_large': { zh: '网页超过 {kb} KB，未读取', en: 'The page is over {kb} KB and was not read' },
  'fetch.bad_url': { zh: '网址无效：{url}', en: 'Not a valid web address: {url}' },
  'fetch.not_http': { zh: '只能读取 http 或 https 网页：{protocol}', en: 'Only http and https pages can be read: {protocol}' },
  'fetch.dns_failed': { zh: '无法解析域名 {host}', en: 'The domain {host} could not be found' },
  'fetch.too_complex': { zh: '网页内容过于复杂，无法在限定的内存和时间内读取', en: 'The page is too complex to read within the memory and time allowed' },
  'fetch.blocked_address': { zh: '出于安全原因，不读取内网或本机地址（{address}）', en: 'For safety, addresses on a local network or this machine are not read ({address})' },

  'extraction.web_unavailable': { zh: '网页读取不可用', en: 'Reading web pages is not available here' },
  'extraction.nothing_to_read': { zh: '所选资料没有可读取的内容，无法提取认知', en: 'The chosen material has nothing readable to draw cognitions from' },

  // Agents, tasks, trajectories, feedback.
  'agents.not_found': { zh: '智能体不存在', en: 'Agent not found' },
  'agents.id_invalid': { zh: '智能体 ID 格式不正确', en: 'The agent ID is malformed' },
  'agents.name_required': { zh: '请提供智能体名称', en: 'The agent name is required' },
  'agents.instructions_required': { zh: '请提供工作说明', en: 'The instructions are required' },
  'agents.tool_required': { zh: '请提供 tool', en: 'tool is required' },
  'agents.name_empty': { zh: '智能体名称不能为空', en: 'The agent name cannot be empty' },
  'agents.name_too_long': { zh: '智能体名称最多 {max} 个字符', en: 'An agent name can be at most {max} characters' },
  'agents.description_too_long': { zh: '简介最多 {max} 个字符', en: 'The description can be at most {max} characters' },
  'agents.instructions_empty': { zh: '请写下智能体的工作说明', en: 'Please write the agent’s instructions' },
  'agents.instructions_too_long': { zh: '工作说明最多 {max} 个字符', en: 'Instructions can be at most {max} characters' },
  'agents.unknown_tools': { zh: '没有这些工具：{tools}', en: 'These tools do not exist: {tools}' },
  'agents.unknown_tool': { zh: '没有名为 {name} 的工具（可用：{available}）', en: 'There is no tool named {name} (available: {available})' },
  'agents.tool_timeout': { zh: '工具运行超过 {seconds} 秒，已停止', en: 'The tool ran longer than {seconds} seconds and was stopped' },
  'agents.time_zone_unknown': { zh: '未知的时区', en: 'Unknown time zone' },

  // Platform tools: why a call could not compute (the model reads the Chinese, a person their language).
  'tools.invalid_args': { zh: '{tool} 的参数有误：{problems}', en: 'The arguments of {tool} are wrong: {problems}' },
  'tools.only_in_agents': { zh: '该工具检索你的笔记、上传文件和认知库，只在研究与写作智能体运行时可用', en: 'This tool searches your notes, uploads and cognitions; it runs only inside the research and writing agents' },
  'tools.expression_too_long': { zh: '表达式过长（超过 {max} 个字符）', en: 'The expression is too long (over {max} characters)' },
  'tools.expression_empty': { zh: '表达式为空', en: 'The expression is empty' },
  'tools.expression_incomplete': { zh: '表达式不完整', en: 'The expression is incomplete' },
  'tools.out_of_range': { zh: '结果超出可表示的范围', en: 'The result is out of the representable range' },
  'tools.unknown_character': { zh: '无法识别的字符“{character}”（位置 {position}）', en: 'Unrecognised character “{character}” (position {position})' },
  'tools.extra_token': { zh: '多余的“{token}”', en: 'Unexpected “{token}” at the end' },
  'tools.unexpected_token': { zh: '此处不应出现“{token}”', en: '“{token}” cannot stand here' },
  'tools.nested_too_deep': { zh: '括号嵌套过深', en: 'The brackets are nested too deeply' },
  'tools.missing_close': { zh: '缺少右括号', en: 'A closing bracket is missing' },
  'tools.expected_after': { zh: '{after} 后应为“{expected}”', en: '“{expected}” must follow {after}' },
  'tools.division_by_zero': { zh: '除数不能为零', en: 'Division by zero' },
  'tools.sqrt_negative': { zh: '负数不能开平方', en: 'A negative number has no real square root' },
  'tools.log_argument': { zh: '对数的真数必须大于 0', en: 'The logarithm of a number needs it to be greater than 0' },
  'tools.log_base': { zh: '对数的底数必须大于 0 且不等于 1', en: 'A logarithm’s base must be greater than 0 and not 1' },
  'tools.round_digits': { zh: 'round 的小数位数须为 0 到 15 的整数', en: 'round takes a whole number of decimals from 0 to 15' },
  'tools.negative_fractional_power': { zh: '负数的非整数次幂不是实数', en: 'A negative number to a fractional power is not a real number' },
  'tools.argument_count': { zh: '{name} 需要 {count} 个参数', en: 'Wrong number of arguments for {name}: it takes {count}' },
  'tools.argument_range': { zh: '{name} 需要 {min} 到 {max} 个参数', en: 'Wrong number of arguments for {name}: it takes {min} to {max}' },
  'tools.unknown_name': { zh: '未知的函数或常量“{name}”（可用：{available}）', en: 'Unknown function or constant “{name}” (available: {available})' },
  'tools.unknown_unit': { zh: '不认识的单位“{unit}”', en: 'Unknown unit “{unit}”' },
  'tools.incompatible_units': { zh: '无法把{fromDimension}单位“{from}”换算成{toDimension}单位“{to}”', en: 'Cannot convert the {fromDimension} unit “{from}” into the {toDimension} unit “{to}”' },
  'tools.below_absolute_zero': { zh: '温度不能低于绝对零度', en: 'A temperature cannot be below absolute zero' },
  'tasks.not_found': { zh: '任务不存在', en: 'Task not found' },
  'tasks.target_required': { zh: '请提供 target_id', en: 'target_id is required' },
  'tasks.target_empty': { zh: 'target_id 不能为空', en: 'target_id cannot be empty' },
  'tasks.target_too_long': { zh: 'target_id 过长', en: 'target_id is too long' },
  'tasks.action_invalid': { zh: 'action_type 只能是 {values}', en: 'action_type must be one of {values}' },
  'tasks.not_completed': { zh: '任务尚未完成，暂时不能领取奖励', en: 'The task is not completed yet, so its reward cannot be claimed' },
  'tasks.reward_claimed': { zh: '奖励已领取，不能重复领取', en: 'The reward has already been claimed' },
  'trajectories.not_found': { zh: '轨迹文件不存在', en: 'Trajectory not found' },
  'trajectories.id_invalid': { zh: '轨迹文件 ID 格式不正确', en: 'The trajectory ID is malformed' },
  'trajectories.session_required': { zh: '请提供 session_id', en: 'session_id is required' },
  'trajectories.events_required': { zh: '请提供 events', en: 'events is required' },
  'trajectories.events_empty': { zh: 'events 不能为空', en: 'events cannot be empty' },
  'trajectories.event_type_invalid': { zh: 'event_type 只能是 {values}', en: 'event_type must be one of {values}' },
  'trajectories.timestamp_invalid': { zh: 'timestamp 需为 ISO 8601 时间', en: 'timestamp must be an ISO 8601 time' },
  'trajectories.favorite_required': { zh: '请提供 favorite', en: 'favorite is required' },
  'trajectories.expiry_too_short': { zh: '有效期至少 {min} 秒', en: 'The validity must be at least {min} seconds' },
  'trajectories.expiry_too_long': { zh: '有效期最多 3650 天', en: 'The validity can be at most 3650 days' },
  'trajectories.file_id_mismatch': { zh: 'file_id 与路径不一致', en: 'file_id does not match the path' },
  'trajectories.too_many_events': { zh: '每个轨迹最多 {max} 个事件', en: 'A trajectory can have at most {max} events' },
  'engineer.not_found': { zh: '工程会话不存在', en: 'Engineer session not found' },
  'engineer.node_not_found': { zh: '节点不存在', en: 'Node not found' },
  'engineer.command_not_found': { zh: '命令不存在', en: 'Command not found' },
  'engineer.session_ended': { zh: '会话已结束，不能再写入', en: 'This session has ended and takes no more writes' },
  'engineer.parent_unknown': { zh: '父节点不存在：{id}', en: 'Unknown parent node: {id}' },
  'engineer.node_reshaped': { zh: '节点 {id} 已记录：可以更新状态、内容和时间，不能改变类型或父节点', en: 'Node {id} is already recorded: its status, payload and timing can be updated, not its type or parent' },
  'engineer.too_many_nodes': { zh: '每个会话最多 {max} 个节点', en: 'A session can have at most {max} nodes' },
  'engineer.proposal_unknown': { zh: '没有待批准的命令建议：{id}', en: 'No command proposal waits for an answer: {id}' },
  'engineer.proposal_answered': { zh: '该命令建议已有答复', en: 'This command proposal has already been answered' },
  'engineer.result_recorded': { zh: '该命令已有不同的结果', en: 'This command already has a different result' },
  'engineer.title_empty': { zh: '请填写会话标题', en: 'Please give the session a title' },
  'engineer.input_empty': { zh: '输入不能为空', en: 'The input cannot be empty' },
  'engineer.run_approved_terminal': { zh: '已批准运行（终端）', en: 'Approved to run (answered in the terminal)' },
  'engineer.run_approved_browser': { zh: '已批准运行（浏览器）', en: 'Approved to run (answered in the browser)' },
  'engineer.run_refused_terminal': { zh: '已拒绝运行（终端）', en: 'Refused to run (answered in the terminal)' },
  'engineer.run_refused_browser': { zh: '已拒绝运行（浏览器）', en: 'Refused to run (answered in the browser)' },
  'engineer.run_refused_ended': { zh: '已拒绝运行（会话结束）', en: 'Not run (the session ended first)' },
  'engineer.sandbox_missing': { zh: '沙箱不可用：没有找到 bubblewrap（{path}），命令没有运行', en: 'The sandbox is unavailable: bubblewrap was not found ({path}), so the command did not run' },
  'engineer.sandbox_refused': { zh: '沙箱不可用：bubblewrap 无法创建隔离环境（{reason}），命令没有运行', en: 'The sandbox is unavailable: bubblewrap could not build one ({reason}), so the command did not run' },
  'engineer.sandbox_time': { zh: '命令超过时间限制（{seconds} 秒），已停止', en: 'The command ran past its time limit ({seconds} s) and was stopped' },
  'engineer.sandbox_output': { zh: '命令输出超过限制（{kb} KB），已停止', en: 'The command printed more than its limit ({kb} KB) and was stopped' },
  'engineer.sandbox_memory': { zh: '命令超过内存限制（{mb} MB），已停止', en: 'The command went past its memory limit ({mb} MB) and was stopped' },
  'engineer.sandbox_processes': { zh: '命令超过进程数限制（{count} 个），已停止', en: 'The command went past its process limit ({count}) and was stopped' },
  'engineer.sandbox_disk': { zh: '命令超过磁盘限制（工作区 {mb} MB、{entries} 个文件，/tmp {tmp} MB），已停止', en: 'The command went past its disk limit (workspace {mb} MB and {entries} files, /tmp {tmp} MB) and was stopped' },
  'engineer.command_unrunnable': { zh: '命令中含有空字符（NUL），无法执行，已跳过', en: 'The command holds a NUL character, which cannot be run, so it was skipped' },
  'engineer.demo_limit': { zh: '你已有 {max} 个演示在运行，请等其结束或停止一个后再开始', en: 'You already have {max} demos running; wait for one to end or stop one first' },
  'engineer.demo_failed': { zh: '演示因内部错误中止，请重新开始', en: 'The demo stopped on an internal error; please start it again' },
  'engineer.id_invalid': { zh: '会话 ID 格式不正确', en: 'Invalid session id' },
  'engineer.node_id_invalid': { zh: '节点 ID 只能包含字母、数字和 _.:-，最多 100 个字符', en: 'A node id may hold letters, digits and _.:- only, at most 100 characters' },
  'engineer.command_id_invalid': { zh: '命令 ID 格式不正确', en: 'Invalid command id' },
  'engineer.client_id_invalid': { zh: 'client_id 格式不正确', en: 'Invalid client_id' },
  'engineer.title_required': { zh: '请提供 title', en: 'Please give a title' },
  'engineer.nodes_required': { zh: '请提供 nodes', en: 'Please give nodes' },
  'engineer.task_required': { zh: '请提供 task_description', en: 'Please give a task_description' },
  'engineer.task_forbidden_characters': { zh: '任务描述不能包含控制字符', en: 'A task description cannot contain control characters' },
  'engineer.time_invalid': { zh: '需为 ISO 8601 时间', en: 'Must be an ISO 8601 time' },
  'engineer.bad_cursor': { zh: '分页游标无效', en: 'Invalid paging cursor' },
  'deck.too_large': { zh: '演示文稿不能超过 {mb} MB', en: 'A presentation can be at most {mb} MB' },
  'deck.empty': { zh: '文件是空的', en: 'The file is empty' },
  'deck.legacy_ppt': { zh: '不支持旧版 PowerPoint（.ppt）文件，请另存为 .pptx 后上传', en: 'Old PowerPoint (.ppt) files are not supported; please save as .pptx and upload again' },
  'deck.extension_unsupported': { zh: '只能评审 .pptx 演示文稿，不支持 .{extension} 文件', en: 'Only .pptx presentations can be reviewed, not .{extension} files' },
  'deck.type_mismatch': { zh: '文件类型 {type} 不是 PowerPoint 演示文稿', en: 'The file type {type} is not a PowerPoint presentation' },
  'deck.encrypted': { zh: '演示文稿已加密，请先移除密码再上传', en: 'The presentation is password-protected; please remove the password before uploading' },
  'deck.not_zip': { zh: '文件内容不是 .pptx 演示文稿', en: 'The file’s content is not a .pptx presentation' },
  'deck.corrupt': { zh: '演示文稿已损坏，无法读取', en: 'The presentation is damaged and cannot be read' },
  'deck.not_presentation': { zh: '文件是压缩包，但其中没有 PowerPoint 演示文稿', en: 'The file is a ZIP archive, but holds no PowerPoint presentation' },
  'deck.unpacked_too_large': { zh: '演示文稿解压后超过 {mb} MB，无法处理', en: 'The presentation unpacks to more than {mb} MB and cannot be handled' },
  'deck.part_too_large': { zh: '演示文稿中有一页或一个部件解压后超过 {mb} MB，无法处理', en: 'A slide or another part of the presentation unpacks to more than {mb} MB and cannot be handled' },
  'deck.too_complex': { zh: '演示文稿内容过于复杂，无法在限定的内存和时间内读取', en: 'The presentation is too complex to read within the memory and time allowed' },
  'deck.no_slides': { zh: '演示文稿中没有幻灯片', en: 'The presentation has no slides' },
  'deck.too_many_slides': { zh: '一次最多评审 {max} 页幻灯片', en: 'At most {max} slides can be reviewed at once' },
  'deck.slide_unknown': { zh: '演示文稿中没有第 {n} 页', en: 'The presentation has no slide {n}' },
  'deck.review_incomplete': { zh: '还有 {missing} 页没有评审结果', en: '{missing} slides have no review yet' },
  'deck.score_invalid': { zh: '评分需在 0 到 100 之间', en: 'A score must be between 0 and 100' },
  'deck.not_found': { zh: '评审不存在', en: 'Review not found' },
  'deck.id_invalid': { zh: '评审 ID 格式不正确', en: 'Invalid review id' },
  'deck.language_invalid': { zh: '评审语言只能是 zh 或 en', en: 'The review language must be zh or en' },
  'deck.format_invalid': { zh: '导出格式只能是 md 或 pdf', en: 'The export format must be md or pdf' },
  'deck.answer_invalid': { zh: '模型两次返回的评审格式都不正确，本页未能评审', en: 'The model answered in the wrong format twice, so this slide was not reviewed' },
  'deck.model_failed': { zh: '模型调用失败，本页未能评审：{reason}', en: 'The model call failed, so this slide was not reviewed: {reason}' },
  'deck.nothing_reviewed': { zh: '没有一页评审成功', en: 'Not one slide could be reviewed' },
  'deck.review_failed': { zh: '评审因内部错误中止，请重新上传', en: 'The review stopped on an internal error; please upload the presentation again' },
  'collab.not_found': { zh: '共享文档不存在', en: 'Shared document not found' },
  'collab.id_invalid': { zh: '文档 ID 格式不正确', en: 'Invalid document id' },
  'collab.title_empty': { zh: '请填写文档标题', en: 'Please give the document a title' },
  'collab.title_too_long': { zh: '标题最多 200 个字符', en: 'The title can be at most 200 characters' },
  'collab.role_invalid': { zh: '权限只能是 edit 或 read', en: 'The role must be edit or read' },
  'collab.read_only': { zh: '你只有查看权限，不能编辑此文档', en: 'You can only read this document, not edit it' },
  'collab.owner_only': { zh: '只有文档所有者可以邀请成员', en: 'Only the document’s owner can invite members' },
  'collab.invite_invalid': { zh: '邀请链接无效', en: 'This invitation link is not valid' },
  'collab.invite_revoked': { zh: '此邀请链接已被文档所有者撤销，请向其索取新的链接', en: 'The document’s owner has revoked this invitation link; ask them for a new one' },
  'collab.removed': { zh: '文档所有者已将你移出此文档，旧的邀请链接对你不再有效，请向其索取新的链接', en: 'The document’s owner removed you from this document; the old invitation links no longer work for you, so ask them for a new one' },
  'collab.invite_not_found': { zh: '此文档没有这个邀请链接', en: 'This document has no such invitation link' },
  'collab.owner_only_manage': { zh: '只有文档所有者可以管理文档', en: 'Only the document’s owner can manage it' },
  'collab.owner_fixed': { zh: '文档所有者不能被移除、退出或更改权限', en: 'The document’s owner cannot be removed, leave, or have their access changed' },
  'collab.member_not_found': { zh: '此用户不是文档的成员', en: 'This user is not a member of the document' },
  'collab.version_behind': { zh: '文档已更新到版本 {version}，请先同步', en: 'The document has moved on to version {version}; catch up first' },
  'collab.version_ahead': { zh: '版本号超过了文档当前版本 {version}', en: 'The version is beyond the document’s current version {version}' },
  'collab.version_invalid': { zh: '版本号需为不小于 0 的整数', en: 'The version must be a whole number of at least 0' },
  'collab.batch_size': { zh: '每批需要 1 到 {max} 个步骤', en: 'A batch needs 1 to {max} steps' },
  'collab.step_invalid': { zh: '第 {index} 个步骤无法应用到当前文档', en: 'Step {index} cannot be applied to the current document' },
  'collab.doc_invalid': { zh: '文档内容不符合共享文档的格式', en: 'The content does not fit the shared document format' },
  'collab.doc_too_large': { zh: '文档过大（最多 {max} 个字符）', en: 'The document is too large (at most {max} characters)' },
  'collab.presence_timeout': { zh: '连接长时间无响应，已断开', en: 'The connection was silent too long and was closed' },
  'feedback.text_empty': { zh: '反馈内容不能为空', en: 'The feedback cannot be empty' },
  'feedback.type_invalid': { zh: '反馈类型只能是 bug、feature 或 general', en: 'The feedback type must be bug, feature or general' },
  'feedback.text_required': { zh: '请输入反馈内容', en: 'Please write your feedback' },
  'feedback.text_too_long': { zh: '反馈内容最多 {max} 个字符', en: 'Feedback can be at most {max} characters' },

  // Connections: model endpoints, search, SMTP and speech set by an administrator.
  'connections.url_invalid': { zh: '地址需以 http:// 或 https:// 开头', en: 'The address must start with http:// or https://' },
  'connections.url_credentials': { zh: '地址中不能包含用户名或密码，请把密钥填在密钥栏', en: 'The address cannot carry a user name or password; put the key in the key field' },
  'connections.smtp_url_invalid': { zh: 'SMTP 地址需以 smtp:// 或 smtps:// 开头', en: 'The SMTP address must start with smtp:// or smtps://' },
  'connections.mail_from_invalid': { zh: '发件人需为邮箱地址，如 Scriptorium <no-reply@example.com>', en: 'The sender must be an e-mail address, such as Scriptorium <no-reply@example.com>' },
  'connections.model_required': { zh: '请填写模型名称', en: 'Please enter the model name' },
  'connections.model_too_long': { zh: '模型名称最多 {max} 个字符', en: 'The model name can be at most {max} characters' },
  'connections.key_too_long': { zh: '密钥最多 {max} 个字符', en: 'The key can be at most {max} characters' },
  'connections.roles_required': { zh: '请至少选择一个用途', en: 'Please choose at least one role' },
  'connections.role_unknown': { zh: '未知的用途：{role}', en: 'Unknown role: {role}' },
  'connections.role_taken': { zh: '用途“{role}”已由另一个模型端点 {id} 承担', en: 'The role “{role}” is already served by another model endpoint, {id}' },
  'connections.profile_invalid': { zh: '模型参数不正确：{field}', en: 'Invalid model profile: {field}' },
  'connections.endpoint_id_invalid': { zh: '模型端点 ID 格式不正确', en: 'The model endpoint ID is malformed' },
  'connections.endpoint_exists': { zh: '模型端点已存在', en: 'This model endpoint already exists' },
  'connections.endpoint_not_found': { zh: '模型端点不存在', en: 'No such model endpoint' },
  'connections.not_set': { zh: '该连接尚未配置', en: 'This connection is not set' },
  'connections.key_unreadable': { zh: '无法解密已保存的密钥（CONNECTIONS_KEY 可能已更换），请重新填写密钥', en: 'The saved key cannot be decrypted (CONNECTIONS_KEY may have changed); please enter the key again' },
} as const satisfies Record<string, Texts>;

export type ErrorCode = keyof typeof ERROR_TEXTS;
export type Lang = keyof Texts;

/**
 * Param values that are words rather than names or numbers: the wire carries the key, and each
 * language words it, so a Chinese word never lands in an English sentence.
 */
const DIMENSION_WORDS = { length: { zh: '长度', en: 'length' }, mass: { zh: '质量', en: 'mass' }, time: { zh: '时间', en: 'time' }, temperature: { zh: '温度', en: 'temperature' } } as const;

export const PARAM_WORDS = {
  'files.type_mismatch': { actual: { text: { zh: '文本', en: 'text' }, other: { zh: '其他格式', en: 'another format' } } },
  'tools.incompatible_units': { fromDimension: DIMENSION_WORDS, toDimension: DIMENSION_WORDS },
  'agent.model_refused': {
    reason: {
      context_window: { zh: '提示超出了模型的上下文窗口', en: 'the prompt is longer than the model’s context window' },
      output_cap: { zh: '请求的回答长度超过了模型的输出上限', en: 'the answer length asked for is over the model’s output limit' },
      other: { zh: '服务不接受这样的请求', en: 'the service does not accept the request as it was made' },
    },
  },
} as const satisfies Partial<Record<ErrorCode, Record<string, Record<string, Texts>>>>;

/** A code's params with its word-valued params worded in `lang`; any other value passes as it is. */
export function localParams(code: string, params: Readonly<Record<string, string | number>>, lang: Lang): Record<string, string | number> {
  const words: Partial<Record<string, Record<string, Texts>>> = Object.hasOwn(PARAM_WORDS, code) ? PARAM_WORDS[code as keyof typeof PARAM_WORDS] : {};
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, words[name]?.[value]?.[lang] ?? value]));
}

type Placeholders<Text extends string> = Text extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;

/** The params a code's text interpolates: none for a plain text, each placeholder otherwise. */
export type ErrorParams<Code extends ErrorCode> = [Placeholders<(typeof ERROR_TEXTS)[Code]['zh']>] extends [never]
  ? Record<never, never>
  : Record<Placeholders<(typeof ERROR_TEXTS)[Code]['zh']>, string | number>;

/** Arguments after a code: its params (optional when its text has no placeholder), then `Tail`. */
export type ParamsThen<Code extends ErrorCode, Tail extends unknown[] = []> = [keyof ErrorParams<Code>] extends [never]
  ? [params?: ErrorParams<Code>, ...Tail]
  : [params: ErrorParams<Code>, ...Tail];

/** A code with its params, as it travels on the wire; `params` is left out when there are none. */
export interface CodedError {
  code: string;
  params?: Record<string, string | number>;
}

export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERROR_TEXTS, code);

/** Fills `{name}` from params; a missing param stays visible rather than becoming "undefined". */
export function fillPlaceholders(text: string, params: Readonly<Record<string, string | number>> = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

export function errorText<Code extends ErrorCode>(code: Code, ...[params, lang = 'zh']: ParamsThen<Code, [lang?: Lang]>): string {
  return anyErrorText(code, params, lang);
}

/** `errorText` for a code known only at run time (read from the wire, or passed on by a typed caller). */
export function anyErrorText(code: ErrorCode, params: Readonly<Record<string, string | number>> = {}, lang: Lang = 'zh'): string {
  return fillPlaceholders(ERROR_TEXTS[code][lang], localParams(code, params, lang));
}

/** A code with exactly the params its text fills, checked where it is written, in its wire form. */
export function refusal<Code extends ErrorCode>(code: Code, ...[params]: ParamsThen<Code>): CodedError {
  return coded(code, params ?? {});
}

/**
 * A failure the catalogue words: `message` is the Chinese text (for the log and a model), `refusal`
 * the code and params a client words in its reader's language.
 */
export class CatalogueError extends Error {
  constructor(readonly refusal: CodedError) {
    super(chineseText(refusal));
    this.name = 'CatalogueError';
  }
}

/** A refusal's Chinese text; a code the catalogue lacks stands as itself. */
export const chineseText = (refusal: CodedError): string => (isErrorCode(refusal.code) ? anyErrorText(refusal.code, refusal.params) : refusal.code);

/** The wire form of a code and its params: `params` only when a text has something to fill. */
export function coded(code: string, params: Readonly<Record<string, string | number>> = {}): CodedError {
  return Object.keys(params).length > 0 ? { code, params: { ...params } } : { code };
}
