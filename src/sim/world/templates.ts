// Event templates per category: each turns a seeded Rng, an end time and a market budget into an
// EventDraft (title, description, tags, series, 1..k market drafts with questions, outcomes and a
// latent probability). Invariants kept here:
// - a draft has at least one and at most `maxMarkets` markets;
// - a neg-risk draft's probabilities sum to about 1 (one of its outcomes will happen); a plain
//   multi-market draft's markets are independent;
// - every tag label used is a category label or in TOPIC_TAGS (the generator maps labels to tags);
// - dates in text are formatted in UTC from the given end time, so they agree with endDate.
import type { Category } from './model.js';
import type { Rng } from './rng.js';
import {
  AWARDS,
  COINS,
  COMPANIES,
  COUNTRIES,
  FED_OUTCOMES,
  FILMS,
  FIRST_NAMES,
  INDICES,
  LAST_NAMES,
  LEAGUES,
  MASCOTS,
  MENTION_OCCASIONS,
  MENTION_WORDS,
  MONTHS,
  OFFICES,
  POLICY_ACTIONS,
  PRODUCTS,
  CITIES,
  WEATHER_CITIES,
} from './vocab.js';
import { HOUR_MS } from './ids.js';

export interface MarketDraft {
  question: string;
  groupItemTitle: string;
  outcomes: [string, string];
  description: string;
  /** Latent probability of outcome 0, in (0, 1). */
  probability: number;
  gameStartMs: number | null;
  feeEnabled: boolean;
}

export interface SeriesDraft {
  slug: string;
  title: string;
  recurrence: 'daily' | 'weekly' | 'monthly' | 'annual';
}

export interface EventDraft {
  title: string;
  description: string;
  resolutionSource: string;
  category: Category;
  topicTags: string[];
  negRisk: boolean;
  series: SeriesDraft | null;
  markets: MarketDraft[];
}

export interface TemplateContext {
  endMs: number;
  maxMarkets: number;
}

type Template = (rng: Rng, ctx: TemplateContext) => EventDraft;

function monthDay(ms: number): string {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()] ?? 'January'} ${d.getUTCDate()}`;
}
function monthName(ms: number): string {
  return MONTHS[new Date(ms).getUTCMonth()] ?? 'January';
}
function year(ms: number): number {
  return new Date(ms).getUTCFullYear();
}

function yesNo(condition: string, source: string): string {
  return (
    `This market will resolve to "Yes" if ${condition}. Otherwise, this market will resolve to "No".\n\n` +
    `The resolution source for this market is ${source}.`
  );
}

function person(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

function distinctPeople(rng: Rng, n: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  while (out.length < n) {
    const p = person(rng);
    if (!seen.has(p)) {
      seen.add(p);
      out.push(p);
    }
  }
  return out;
}

/** Probabilities summing to 1 over n outcomes, skewed so that there is a favourite. */
function groupProbabilities(rng: Rng, n: number): number[] {
  const w: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = rng.float();
    w.push(0.02 + u * u * u);
  }
  const total = w.reduce((a, b) => a + b, 0);
  return w.map((x) => Math.min(0.97, Math.max(0.003, x / total)));
}

function binaryProbability(rng: Rng): number {
  return Math.min(0.97, Math.max(0.03, rng.float()));
}

function count(rng: Rng, ctx: TemplateContext, lo: number, hi: number): number {
  return Math.max(1, Math.min(ctx.maxMarkets, rng.int(lo, hi)));
}

const election: Template = (rng, ctx) => {
  const country = rng.pick(COUNTRIES);
  const office = rng.pick(OFFICES);
  const y = year(ctx.endMs);
  const n = count(rng, ctx, 3, 7);
  const people = distinctPeople(rng, n);
  const probs = groupProbabilities(rng, n);
  const title = `${country} ${office[0]?.toUpperCase() ?? ''}${office.slice(1)} Election ${y}`;
  const source = 'the official results published by the national electoral authority';
  return {
    title,
    description: `This event covers the winner of the ${y} ${country} ${office} election. Each market resolves "Yes" for the candidate declared winner.`,
    resolutionSource: `${'https://sim.oddsmaker.invalid/sources/'}${country.toLowerCase().replace(/ /g, '-')}-elections`,
    category: 'politics',
    topicTags: ['Elections', 'World Elections'],
    negRisk: n > 1,
    series: null,
    markets: people.map((p, i) => ({
      question: `Will ${p} win the ${y} ${country} ${office} election?`,
      groupItemTitle: p,
      outcomes: ['Yes', 'No'],
      description: yesNo(`${p} is declared the winner of the ${y} ${country} ${office} election`, source),
      probability: probs[i] ?? 0.5,
      gameStartMs: null,
      feeEnabled: false,
    })),
  };
};

const policyAction: Template = (rng, ctx) => {
  const who = person(rng);
  const action = rng.pick(POLICY_ACTIONS);
  const date = monthDay(ctx.endMs);
  const q = `Will ${who} ${action} by ${date}?`;
  return {
    title: q,
    description: `Resolves on official statements by ${date}, ${year(ctx.endMs)}.`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/official-gazette',
    category: 'politics',
    topicTags: ['Geopolitics'],
    negRisk: false,
    series: null,
    markets: [
      {
        question: q,
        groupItemTitle: who,
        outcomes: ['Yes', 'No'],
        description: yesNo(
          `${who} does ${action} by ${date}, ${year(ctx.endMs)} 11:59 PM ET`,
          'official government statements',
        ),
        probability: binaryProbability(rng),
        gameStartMs: null,
        feeEnabled: false,
      },
    ],
  };
};

function team(rng: Rng): string {
  return `${rng.pick(CITIES)} ${rng.pick(MASCOTS)}`;
}

const game: Template = (rng, ctx) => {
  const league = rng.pick(LEAGUES);
  const home = team(rng);
  let away = team(rng);
  while (away === home) away = team(rng);
  const start = ctx.endMs - 3 * HOUR_MS;
  const title = `${away} vs. ${home}`;
  return {
    title,
    description: `${league.label} game on ${monthDay(start)}.`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/league-scores',
    category: 'sports',
    topicTags: [league.tag, 'Games'],
    negRisk: false,
    series: {
      slug: `${league.label.toLowerCase().replace(/ /g, '-')}-games`,
      title: `${league.label} Games`,
      recurrence: 'daily',
    },
    markets: [
      {
        question: title,
        groupItemTitle: title,
        outcomes: [away, home],
        description:
          `This market resolves to "${away}" if the ${away} win the game scheduled for ${monthDay(start)}, otherwise to "${home}". ` +
          'If the game is cancelled or ends in a tie, it resolves 50-50.',
        probability: Math.min(0.85, Math.max(0.15, rng.normal(0.45, 0.12))),
        gameStartMs: start,
        feeEnabled: false,
      },
    ],
  };
};

const champion: Template = (rng, ctx) => {
  const league = rng.pick(LEAGUES);
  const y = year(ctx.endMs);
  const n = count(rng, ctx, 4, 8);
  const teams: string[] = [];
  while (teams.length < n) {
    const t = team(rng);
    if (!teams.includes(t)) teams.push(t);
  }
  const probs = groupProbabilities(rng, n);
  return {
    title: `${league.label} Champion ${y}`,
    description: `Which team will win the ${y} ${league.label} championship?`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/league-standings',
    category: 'sports',
    topicTags: [league.tag],
    negRisk: n > 1,
    series: null,
    markets: teams.map((t, i) => ({
      question: `Will the ${t} win the ${y} ${league.label} championship?`,
      groupItemTitle: t,
      outcomes: ['Yes', 'No'],
      description: yesNo(`the ${t} win the ${y} ${league.label} championship`, "the league's official website"),
      probability: probs[i] ?? 0.5,
      gameStartMs: null,
      feeEnabled: false,
    })),
  };
};

const cryptoUpDown: Template = (rng, ctx) => {
  const coin = rng.pick(COINS);
  const title = `${coin.name} Up or Down - ${monthDay(ctx.endMs)}`;
  return {
    title,
    description: `This market will resolve to "Up" if the ${coin.symbol}/USD price at the end of ${monthDay(ctx.endMs)} is greater than or equal to the price at its start. Otherwise, it will resolve to "Down".`,
    resolutionSource: `https://sim.oddsmaker.invalid/feeds/${coin.symbol.toLowerCase()}-usd`,
    category: 'crypto',
    topicTags: [coin.tag, 'Up or Down', 'Recurring'],
    negRisk: false,
    series: {
      slug: `${coin.symbol.toLowerCase()}-up-or-down-daily`,
      title: `${coin.name} Up or Down Daily`,
      recurrence: 'daily',
    },
    markets: [
      {
        question: title,
        groupItemTitle: 'Up or Down',
        outcomes: ['Up', 'Down'],
        description: `Resolves "Up" if ${coin.symbol}/USD closes the day at or above its open, per the ${coin.symbol}/USD feed.`,
        probability: Math.min(0.7, Math.max(0.3, rng.normal(0.5, 0.05))),
        gameStartMs: null,
        feeEnabled: true,
      },
    ],
  };
};

function priceText(v: number): string {
  return `$${thousands(v)}`;
}

const cryptoAbove: Template = (rng, ctx) => {
  const coin = rng.pick(COINS);
  const date = monthDay(ctx.endMs);
  const levels = coin.levels.slice(0, count(rng, ctx, 2, coin.levels.length));
  const mid = levels.length / 2;
  return {
    title: `${coin.name} above ___ on ${date}?`,
    description: `Price thresholds for ${coin.name} at 12:00 PM ET on ${date}.`,
    resolutionSource: `https://sim.oddsmaker.invalid/feeds/${coin.symbol.toLowerCase()}-usd`,
    category: 'crypto',
    topicTags: [coin.tag, 'Crypto Prices'],
    negRisk: false,
    series: {
      slug: `${coin.symbol.toLowerCase()}-above-daily`,
      title: `${coin.name} Above Daily`,
      recurrence: 'daily',
    },
    markets: levels.map((lv, i) => ({
      question: `Will the price of ${coin.name} be above ${priceText(lv)} on ${date}?`,
      groupItemTitle: priceText(lv),
      outcomes: ['Yes', 'No'],
      description: yesNo(
        `the ${coin.symbol}/USD price at 12:00 PM ET on ${date} is above ${priceText(lv)}`,
        `the ${coin.symbol}/USD feed`,
      ),
      probability: Math.min(0.97, Math.max(0.03, 0.5 - (i - mid) * 0.18 + rng.normal(0, 0.04))),
      gameStartMs: null,
      feeEnabled: false,
    })),
  };
};

const indexClose: Template = (rng, ctx) => {
  const ix = rng.pick(INDICES);
  const date = monthDay(ctx.endMs);
  const levels = ix.levels.slice(0, count(rng, ctx, 1, ix.levels.length));
  return {
    title: `${ix.name} close on ${date}`,
    description: `Closing level of the ${ix.name} (${ix.symbol}) on ${date}.`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/exchange-close',
    category: 'finance',
    topicTags: ['Stocks', 'Indices'],
    negRisk: false,
    series: null,
    markets: levels.map((lv, i) => ({
      question: `Will the ${ix.name} close above ${thousands(lv)} on ${date}?`,
      groupItemTitle: thousands(lv),
      outcomes: ['Yes', 'No'],
      description: yesNo(`the official ${ix.symbol} close on ${date} is above ${thousands(lv)}`, 'the index provider'),
      probability: Math.min(0.95, Math.max(0.05, 0.8 - i * 0.2 + rng.normal(0, 0.05))),
      gameStartMs: null,
      feeEnabled: false,
    })),
  };
};

const earnings: Template = (rng, ctx) => {
  const co = rng.pick(COMPANIES);
  const q = `Will ${co.name} (${co.ticker}) beat quarterly earnings estimates?`;
  return {
    title: q,
    description: `${co.name} reports in ${monthName(ctx.endMs)} ${year(ctx.endMs)}.`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/earnings',
    category: 'finance',
    topicTags: ['Stocks', 'Earnings'],
    negRisk: false,
    series: null,
    markets: [
      {
        question: q,
        groupItemTitle: co.ticker,
        outcomes: ['Yes', 'No'],
        description: yesNo(
          `${co.name} reports GAAP EPS above the consensus estimate`,
          "the company's earnings release",
        ),
        probability: binaryProbability(rng),
        gameStartMs: null,
        feeEnabled: false,
      },
    ],
  };
};

const awards: Template = (rng, ctx) => {
  const aw = rng.pick(AWARDS);
  const y = year(ctx.endMs);
  const n = count(rng, ctx, 3, 6);
  const nominees = rng.sample(FILMS, n);
  const probs = groupProbabilities(rng, nominees.length);
  return {
    title: `${aw.name} ${y}: ${aw.category} Winner`,
    description: `Which nominee wins ${aw.category} at the ${y} ${aw.name}?`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/awards',
    category: 'culture',
    topicTags: [
      'Awards',
      aw.category === 'Album of the Year' ? 'Music' : aw.category === 'Fiction' ? 'Books' : 'Movies',
    ],
    negRisk: nominees.length > 1,
    series: { slug: slugBase(aw.name), title: aw.name, recurrence: 'annual' },
    markets: nominees.map((f, i) => ({
      question: `Will "${f}" win ${aw.category} at the ${y} ${aw.name}?`,
      groupItemTitle: f,
      outcomes: ['Yes', 'No'],
      description: yesNo(`"${f}" is announced as the ${aw.category} winner`, `the official ${aw.name} announcement`),
      probability: probs[i] ?? 0.5,
      gameStartMs: null,
      feeEnabled: false,
    })),
  };
};

const boxOffice: Template = (rng, ctx) => {
  const film = rng.pick(FILMS);
  const m = rng.pick([20, 40, 60, 80, 100, 150]);
  const q = `Will "${film}" gross over $${m}M on its opening weekend?`;
  return {
    title: q,
    description: `Domestic opening-weekend gross, weekend ending ${monthDay(ctx.endMs)}.`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/box-office',
    category: 'culture',
    topicTags: ['Movies', 'Box Office'],
    negRisk: false,
    series: null,
    markets: [
      {
        question: q,
        groupItemTitle: `$${m}M`,
        outcomes: ['Yes', 'No'],
        description: yesNo(
          `the reported domestic opening-weekend gross of "${film}" exceeds $${m} million`,
          'box-office tracking reports',
        ),
        probability: binaryProbability(rng),
        gameStartMs: null,
        feeEnabled: false,
      },
    ],
  };
};

const mentions: Template = (rng, ctx) => {
  const who = person(rng);
  const occasion = rng.pick(MENTION_OCCASIONS);
  const words = rng.sample(MENTION_WORDS, count(rng, ctx, 1, 4));
  return {
    title: `What will ${who} say during ${occasion}?`,
    description: `Mentions during ${occasion} on ${monthDay(ctx.endMs)}.`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/transcripts',
    category: 'mentions',
    topicTags: ['Speeches'],
    negRisk: false,
    series: null,
    markets: words.map((w) => ({
      question: `Will ${who} say "${w}" during ${occasion}?`,
      groupItemTitle: w,
      outcomes: ['Yes', 'No'],
      description: yesNo(
        `${who} says "${w}" during ${occasion} on ${monthDay(ctx.endMs)}`,
        'the official transcript or video',
      ),
      probability: binaryProbability(rng),
      gameStartMs: null,
      feeEnabled: false,
    })),
  };
};

const temperature: Template = (rng, ctx) => {
  const city = rng.pick(WEATHER_CITIES);
  const date = monthDay(ctx.endMs);
  const n = count(rng, ctx, 3, 7);
  const step = city.unit === 'F' ? 2 : 1;
  const lo0 = city.base + rng.int(-6, 6) - Math.floor((n * step) / 2);
  const probs = groupProbabilities(rng, n);
  return {
    title: `Highest temperature in ${city.name} on ${date}?`,
    description: `Daily maximum temperature recorded in ${city.name} on ${date}, in °${city.unit}.`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/weather-station',
    category: 'weather',
    topicTags: ['Temperature', 'Daily Temperature', 'Recurring'],
    negRisk: n > 1,
    series: { slug: `${slugBase(city.name)}-daily-weather`, title: `${city.name} Daily Weather`, recurrence: 'daily' },
    markets: Array.from({ length: n }, (_, i) => {
      const lo = lo0 + i * step;
      const range = step === 1 ? `${lo}°${city.unit}` : `${lo}-${lo + step - 1}°${city.unit}`;
      const label =
        i === 0 ? `${lo + step - 1}°${city.unit} or below` : i === n - 1 ? `${lo}°${city.unit} or higher` : range;
      return {
        question: `Will the highest temperature in ${city.name} be ${label} on ${date}?`,
        groupItemTitle: label,
        outcomes: ['Yes', 'No'] as [string, string],
        description: yesNo(
          `the highest temperature recorded in ${city.name} on ${date} is ${label}`,
          "the city's reference weather station",
        ),
        probability: probs[i] ?? 0.5,
        gameStartMs: null,
        feeEnabled: false,
      };
    }),
  };
};

const fed: Template = (rng, ctx) => {
  const month = monthName(ctx.endMs);
  const n = Math.min(FED_OUTCOMES.length, ctx.maxMarkets);
  const probs = groupProbabilities(rng, n);
  return {
    title: `Fed decision in ${month}?`,
    description: `Outcome of the FOMC meeting concluding in ${month} ${year(ctx.endMs)}.`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/fomc-statement',
    category: 'economics',
    topicTags: ['Fed', 'Fed Rates'],
    negRisk: n > 1,
    series: { slug: 'fed-interest-rates', title: 'Fed Interest Rates', recurrence: 'monthly' },
    markets: FED_OUTCOMES.slice(0, n).map((o, i) => ({
      question: `Fed ${o.toLowerCase()} after ${month} ${year(ctx.endMs)} meeting?`,
      groupItemTitle: o,
      outcomes: ['Yes', 'No'],
      description: yesNo(
        `the FOMC announces "${o}" for the federal funds target range at its ${month} meeting`,
        'the FOMC statement',
      ),
      probability: probs[i] ?? 0.5,
      gameStartMs: null,
      feeEnabled: false,
    })),
  };
};

const cpi: Template = (rng, ctx) => {
  const month = monthName(ctx.endMs);
  const levels = ['2.5%', '2.7%', '2.9%', '3.1%', '3.3%'].slice(0, count(rng, ctx, 1, 5));
  return {
    title: `US CPI YoY in ${month}?`,
    description: `Year-over-year CPI print released in ${month} ${year(ctx.endMs)}.`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/cpi-release',
    category: 'economics',
    topicTags: ['Inflation', 'CPI'],
    negRisk: false,
    series: { slug: 'us-cpi-monthly', title: 'US CPI Monthly', recurrence: 'monthly' },
    markets: levels.map((lv, i) => ({
      question: `Will US CPI YoY be above ${lv} in ${month}?`,
      groupItemTitle: `>${lv}`,
      outcomes: ['Yes', 'No'],
      description: yesNo(
        `the headline CPI year-over-year figure released in ${month} is above ${lv}`,
        'the statistics bureau release',
      ),
      probability: Math.min(0.95, Math.max(0.05, 0.85 - i * 0.2 + rng.normal(0, 0.04))),
      gameStartMs: null,
      feeEnabled: false,
    })),
  };
};

const jobs: Template = (rng, ctx) => {
  const month = monthName(ctx.endMs);
  const rate = rng.pick(['4.0%', '4.2%', '4.4%']);
  const q = `Will the US unemployment rate be above ${rate} in the ${month} report?`;
  return {
    title: q,
    description: `Headline unemployment rate in the jobs report released in ${month}.`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/jobs-report',
    category: 'economics',
    topicTags: ['Jobs'],
    negRisk: false,
    series: null,
    markets: [
      {
        question: q,
        groupItemTitle: rate,
        outcomes: ['Yes', 'No'],
        description: yesNo(
          `the headline unemployment rate reported in ${month} is above ${rate}`,
          'the statistics bureau release',
        ),
        probability: binaryProbability(rng),
        gameStartMs: null,
        feeEnabled: false,
      },
    ],
  };
};

const aiModel: Template = (rng, ctx) => {
  const month = monthName(ctx.endMs);
  const n = count(rng, ctx, 3, 6);
  const cos = rng.sample(COMPANIES, n);
  const probs = groupProbabilities(rng, cos.length);
  return {
    title: `Which company has the best AI model end of ${month}?`,
    description: `Top of the public model leaderboard on the last day of ${month} ${year(ctx.endMs)}.`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/model-leaderboard',
    category: 'tech',
    topicTags: ['AI', 'Big Tech'],
    negRisk: cos.length > 1,
    series: { slug: 'best-ai-model-monthly', title: 'Best AI Model Monthly', recurrence: 'monthly' },
    markets: cos.map((c, i) => ({
      question: `Will ${c.name} have the best AI model at the end of ${month} ${year(ctx.endMs)}?`,
      groupItemTitle: c.name,
      outcomes: ['Yes', 'No'],
      description: yesNo(
        `a model by ${c.name} ranks first on the leaderboard at the end of ${month}`,
        'the public model leaderboard',
      ),
      probability: probs[i] ?? 0.5,
      gameStartMs: null,
      feeEnabled: false,
    })),
  };
};

const launch: Template = (rng, ctx) => {
  const co = rng.pick(COMPANIES);
  const product = rng.pick(PRODUCTS);
  const q = `Will ${co.name} release ${product} by ${monthDay(ctx.endMs)}?`;
  return {
    title: q,
    description: `Public availability of ${product} from ${co.name}.`,
    resolutionSource: 'https://sim.oddsmaker.invalid/sources/press-releases',
    category: 'tech',
    topicTags: ['Product Launches'],
    negRisk: false,
    series: null,
    markets: [
      {
        question: q,
        groupItemTitle: co.name,
        outcomes: ['Yes', 'No'],
        description: yesNo(
          `${co.name} makes ${product} publicly available by ${monthDay(ctx.endMs)}, ${year(ctx.endMs)}`,
          'official company announcements',
        ),
        probability: binaryProbability(rng),
        gameStartMs: null,
        feeEnabled: false,
      },
    ],
  };
};

/** 120000 → "120,000" (locale-independent, so the text is the same on every machine). */
function thousands(v: number): string {
  const [i = '', f] = String(v).split('.');
  const grouped = i.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return f === undefined ? grouped : `${grouped}.${f}`;
}

function slugBase(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Templates per category, with weights. */
export const TEMPLATES: Readonly<Record<Category, readonly (readonly [Template, number])[]>> = {
  politics: [
    [election, 2],
    [policyAction, 1],
  ],
  sports: [
    [game, 3],
    [champion, 1],
  ],
  crypto: [
    [cryptoUpDown, 2],
    [cryptoAbove, 2],
  ],
  finance: [
    [indexClose, 1],
    [earnings, 1],
  ],
  culture: [
    [awards, 1],
    [boxOffice, 1],
  ],
  mentions: [[mentions, 1]],
  weather: [[temperature, 1]],
  economics: [
    [fed, 1],
    [cpi, 1],
    [jobs, 1],
  ],
  tech: [
    [aiModel, 1],
    [launch, 1],
  ],
};

export const CATEGORY_WEIGHTS: readonly (readonly [Category, number])[] = [
  ['politics', 18],
  ['sports', 20],
  ['crypto', 18],
  ['finance', 8],
  ['culture', 8],
  ['mentions', 5],
  ['weather', 8],
  ['economics', 8],
  ['tech', 7],
];

/** Typical horizon of an event of this category, in days (active events end this far ahead, at most). */
export const HORIZON_DAYS: Readonly<Record<Category, number>> = {
  politics: 400,
  sports: 14,
  crypto: 2,
  finance: 30,
  culture: 120,
  mentions: 10,
  weather: 2,
  economics: 45,
  tech: 120,
};
