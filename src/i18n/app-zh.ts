/** Our own texts every page may show, in Chinese (the default language); typed by the English ones, so none can be missing. */
import type { AppMessages } from './app-en';

export const appZh: AppMessages = {
  app: {
    dialog: {
      ok: '确定',
      cancel: '取消',
      title: { warning: '警告', delete: '删除确认' },
    },
    error: {
      timeout: '服务器在 %{seconds} 秒内没有响应，请重试。',
      network: '无法连接服务器，请检查网络。',
    },
    nav: {
      login: '登录',
      register: '注册',
      profile: '个人资料',
      operator_area: '管理员登录',
    },
    auth: {
      email: '邮箱地址',
      password: '密码',
      username: '用户名',
      code: '验证码',
      send_code: '发送验证码',
      code_sent: '6 位验证码已发送至 %{email}，10 分钟内有效。',
    },
    login: {
      title: '登录 Maildesk',
      by_password: '密码登录',
      by_code: '验证码登录',
      submit: '登录',
      to_register: '还没有账户？立即注册',
      forgot: '忘记密码？',
    },
    register: {
      title: '创建账户',
      intro: '我们会向您的邮箱发送验证码以确认地址。',
      username: '名称（可选）',
      submit: '注册',
      have_account: '已有账户？去登录',
    },
    verify: {
      title: '验证邮箱地址',
      intro: '请输入我们发送到您邮箱的 6 位验证码。',
      submit: '验证并登录',
      resend: '重新发送验证码',
    },
    forgot: {
      title: '重置密码',
      intro: '我们会向您的邮箱发送验证码，用它即可设置新密码。',
      submit: '设置新密码',
      done: '密码已修改，请使用新密码登录。',
    },
    // Team-member invitations (issue 8)
    accept_invitation: {
      title: '加入团队',
      intro: '您受邀以团队成员身份管理邮箱。请设置您登录时使用的密码。',
      submit: '接受邀请并登录',
      no_token: '此页面需要邀请邮件中的链接。请打开该链接，或请邀请您的人重新发送。',
    },
    manage_login: {
      title: '管理员登录',
    },
    not_found: {
      title: '页面不存在',
      text: '您访问的页面不存在或已被移动。',
      home: '返回首页',
    },
    index: {
      title: '为您自己的域名提供托管邮箱',
      tagline: '添加您的域名并验证所有权，在一个控制面板中管理邮箱、别名和全域转发。',
      start: '立即开始',
      products_title: '套餐与存储',
      features: {
        domains: { title: '自有域名', text: '添加您拥有的任何域名，并通过 DNS 完成验证。' },
        mailboxes: { title: '邮箱', text: '创建拥有独立密码和容量的邮箱，支持 IMAP 和 SMTP。' },
        aliases: { title: '别名', text: '按需设置转发地址、全域转发和别名域名。' },
        storage: { title: '存储空间', text: '按需购买容量，在各个邮箱之间灵活分配。' },
      },
    },
    contact: {
      title: '联系我们',
      intro: '对服务有疑问？给我们留言，我们会通过邮件回复您。',
      name: '您的姓名',
      subject: '主题',
      content: '留言内容',
      send: '发送留言',
      sent: '谢谢！您的留言已发送。',
    },
    profile: {
      account_title: '账户',
      username_title: '显示名称',
      username: '名称',
      password_title: '密码',
      old_password: '当前密码',
      new_password: '新密码',
      confirm_password: '再次输入新密码',
      mismatch: '两次输入的密码不一致',
      password_saved: '密码已修改，您在其他设备上的登录已退出。',
      email_title: '邮箱地址',
      current_email: '当前地址：%{email}',
      new_email: '新邮箱地址',
      code_sent: '验证码已发送至 %{email}，输入后即可完成修改。',
      confirm_email: '确认新地址',
      email_saved: '邮箱地址已修改。',
      storage_title: '邮箱容量',
      storage_max: '单个邮箱最大容量（MiB）',
      storage_hint: '也是新建邮箱的默认容量。1024 MiB = 1 GiB。',
      saved: '已保存',
    },
    session: {
      expired: '您的登录已失效（在其他地方退出、已过期或已被撤销），请重新登录。',
    },
  },
};
