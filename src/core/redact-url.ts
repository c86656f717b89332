// Redacting secrets out of a URL before it is shown anywhere (an error message, a log line, a
// config problem): the password of the userinfo (`redis://user:pass@host`) and the value of any
// query parameter whose name says it is a secret (`?password=`, `?token=`) become `***`. The
// scheme, user name, host, port and path stay, so a message still names the address. A string
// that is not an absolute URL is returned unchanged (it carries no userinfo to redact).
// `urlPassword` gives the password itself, for a logger's secret filter; `redactUrlsIn` redacts
// the userinfo password of every URL inside a longer text (a config value shown as JSON).
// `redactUrlPath` keeps only the scheme, host and port, for URLs whose path is the secret (webhooks:
// Slack's /services/..., Discord's /api/webhooks/<id>/<token>, Telegram's /bot<token>/).

const SECRET_PARAM = /pass|secret|token|key|auth/i;

export function redactUrl(s: string): string {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return s;
  }
  let changed = false;
  if (u.password !== '') {
    u.password = '***';
    changed = true;
  }
  for (const name of [...u.searchParams.keys()]) {
    if (SECRET_PARAM.test(name)) {
      u.searchParams.set(name, '***');
      changed = true;
    }
  }
  // URL encodes the stars of a password; show them as typed.
  return changed ? u.toString().replace(/%2A%2A%2A/g, '***') : s;
}

/** Every `scheme://user:password@` in `text` with the password replaced by `***`. */
export function redactUrlsIn(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@"']*:)[^\s@"'/]*@/gi, '$1***@');
}

/** The decoded password of a URL's userinfo, '' when none or not a URL. */
export function urlPassword(s: string): string {
  try {
    return decodeURIComponent(new URL(s).password);
  } catch {
    return '';
  }
}

/** Scheme, host and port of a URL, its userinfo, path and query shown as `***`; '(not a URL)' otherwise. */
export function redactUrlPath(s: string): string {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return '(not a URL)';
  }
  const hidden = u.username !== '' || u.password !== '' || u.pathname !== '/' || u.search !== '' || u.hash !== '';
  return `${u.protocol}//${u.host}/${hidden ? '***' : ''}`;
}
