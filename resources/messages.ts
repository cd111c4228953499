/**
 * Texts of the message keys the API answers with (`message`, field errors), in both
 * languages, with polyglot %{placeholders}. The web app merges them into its translations;
 * a test checks that every key the server uses is here.
 */
const en = {
  ok: 'Done',
  error: {
    session: 'Your session has ended. Please sign in again.',
    validation: 'Some fields need attention.',
    not_verified: 'Please verify your e-mail address first.',
    bad_credentials: 'Wrong e-mail address or password.',
    bad_code: 'The code is wrong, used or expired. Ask for a new one.',
    account_disabled: 'This account is disabled. Please contact support.',
    forbidden: 'You are not allowed to do this.',
    not_found: 'The record does not exist or is not yours.',
    no_such_call: 'There is no such call.',
    last_superadmin: 'The last active superadmin cannot be removed, demoted or disabled.',
    too_large: 'The request is too large.',
    rate_limited: 'Too many attempts. Try again in %{retry_after} seconds.',
    invalid_json: 'The request body is not valid JSON.',
    unsupported_media_type: 'Send the request as JSON.',
    internal: 'Something went wrong on our side. Please try again.',
  },
  validation: {
    required: 'Required',
    invalid: 'Invalid value',
    invalid_type: 'Expected a %{expected}',
    invalid_email: 'Not a valid e-mail address',
    invalid_format: 'Invalid format',
    invalid_choice: 'Choose one of: %{choices}',
    too_short: 'At least %{min} characters',
    too_long: 'At most %{max} characters',
    too_small: 'At least %{min}',
    too_big: 'At most %{max}',
    too_few: 'At least %{min} items',
    too_many: 'At most %{max} items',
    unknown_field: 'Unknown field: %{fields}',
    unknown_filter: 'Cannot filter by %{field}',
    unknown_sort: 'Cannot sort by %{field}',
    taken: 'Already taken',
    template_exists: 'A template for %{key} in %{locale} already exists',
    code_format: 'The code has 6 digits',
    same_email: 'This is already your address',
    wrong_password: 'The current password is wrong',
  },
};

export type ServerMessages = typeof en;

const zh: ServerMessages = {
  ok: '操作成功',
  error: {
    session: '登录已失效，请重新登录。',
    validation: '部分字段需要修改。',
    not_verified: '请先验证您的邮箱地址。',
    bad_credentials: '邮箱或密码错误。',
    bad_code: '验证码错误、已使用或已过期，请重新获取。',
    account_disabled: '该账户已被停用，请联系客服。',
    forbidden: '您没有执行此操作的权限。',
    not_found: '记录不存在或不属于您。',
    no_such_call: '接口不存在。',
    last_superadmin: '不能删除、降级或停用最后一个启用的超级管理员。',
    too_large: '请求内容过大。',
    rate_limited: '尝试次数过多，请在 %{retry_after} 秒后重试。',
    invalid_json: '请求内容不是有效的 JSON。',
    unsupported_media_type: '请以 JSON 格式发送请求。',
    internal: '服务器出错了，请稍后重试。',
  },
  validation: {
    required: '必填',
    invalid: '值无效',
    invalid_type: '应为 %{expected}',
    invalid_email: '邮箱地址格式不正确',
    invalid_format: '格式不正确',
    invalid_choice: '请选择：%{choices}',
    too_short: '至少 %{min} 个字符',
    too_long: '最多 %{max} 个字符',
    too_small: '不能小于 %{min}',
    too_big: '不能大于 %{max}',
    too_few: '至少 %{min} 项',
    too_many: '最多 %{max} 项',
    unknown_field: '未知字段：%{fields}',
    unknown_filter: '不能按 %{field} 筛选',
    unknown_sort: '不能按 %{field} 排序',
    taken: '已被占用',
    template_exists: '%{key}（%{locale}）的模板已存在',
    code_format: '验证码为 6 位数字',
    same_email: '这已经是您的邮箱',
    wrong_password: '当前密码不正确',
  },
};

export const serverMessages = { en, zh };

/** Whether a dotted key (e.g. "error.bad_code") has a text in a language. */
export function hasMessage(messages: ServerMessages, key: string): boolean {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}
