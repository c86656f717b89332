// The body each webhook format posts: json the structured event (with its text), slack {text},
// discord {content}, telegram {chat_id, text} (api.telegram.org/bot<token>/sendMessage). Pure.
import type { NotifyEvent } from './events.js';
import { eventText } from './events.js';

export type WebhookFormat = 'json' | 'slack' | 'discord' | 'telegram';

/** Discord refuses content over 2000 characters; Telegram over 4096. */
const LIMITS: Readonly<Record<WebhookFormat, number>> = {
  json: Number.POSITIVE_INFINITY,
  slack: 3_000,
  discord: 2_000,
  telegram: 4_096,
};

function cap(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

export function webhookBody(format: WebhookFormat, e: NotifyEvent, daemon: string, chatId?: string | number): unknown {
  const text = cap(eventText(e, daemon), LIMITS[format]);
  switch (format) {
    case 'json':
      return { source: 'oddsmaker', daemon, text, ...e };
    case 'slack':
      return { text };
    case 'discord':
      return { content: text };
    case 'telegram':
      return { chat_id: chatId, text };
  }
}
