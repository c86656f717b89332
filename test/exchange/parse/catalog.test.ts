// Catalog and community parsers. Real payload: the recorded Gamma GET /events page (one negRisk
// event with two nested markets and seven tags). Comments, the leaderboard, series and public search
// have no recorded real payload: they are built per interface §2.13–2.17 and docs/protocol.md §8.
import { describe, expect, it } from 'vitest';
import {
  parseComments,
  parseEventFull,
  parseEvents,
  parseLeaderboard,
  parsePublicSearch,
  parseTags,
} from '../../../src/exchange/parse/catalog.js';
import type { WireComment, WireLeaderboardEntry, WireSeries } from '../../../src/exchange/wire.js';
import { clone, realJson, pathOf } from './fixtures.js';

const events = realJson('gamma_events_dem_nominee_2028.json') as Array<Record<string, unknown>>;

describe('events', () => {
  it('parses the real events page, decoding the JSON-in-a-string market fields', () => {
    const [e] = parseEvents(events);
    expect(e!.slug).toBe('democratic-presidential-nominee-2028');
    expect(e!.active).toBe(true);
    expect(e!.tags).toHaveLength(7);
    expect(e!.tags[0]).toEqual({
      id: '101206',
      label: 'World Elections',
      slug: 'world-elections',
      createdAt: '2024-11-07T23:07:25.512144Z',
      updatedAt: '2026-03-09T22:20:41.744191Z',
      requiresTranslation: false,
    });
    expect(e!.markets).toHaveLength(2);
    const m = e!.markets![0]!;
    expect(m.outcomes).toEqual(['Yes', 'No']);
    expect(m.clobTokenIds).toEqual([
      '60590045489347122735554346200880179420435533609307820342798544098823516727807',
      '76005700027045000587004110133818166617024719626220722682005164003117993034812',
    ]);
    expect(m.questionId).toMatch(/^0x/);
  });

  it('the list form without markets has markets null', () => {
    const { markets: _m, ...listForm } = events[0]!;
    expect(parseEvents([listForm])[0]!.markets).toBeNull();
  });

  it('the single-event form carries creationDate, markets, series and eventMetadata', () => {
    const series: WireSeries = {
      id: '1',
      ticker: 'dem-nominee',
      slug: 'dem-nominee',
      title: 'Democratic Nominee',
      seriesType: 'single',
      recurrence: 'quadrennial',
      image: '',
      icon: '',
      active: true,
      closed: false,
      archived: false,
      createdAt: '2025-07-03T20:36:57.824243Z',
      updatedAt: '2026-03-11T15:13:38Z',
    };
    const full = parseEventFull({ ...events[0], series: [series], eventMetadata: { context: 'x' } });
    expect(full.creationDate).toBe('2025-07-11T18:41:17.827389Z');
    expect(full.markets).toHaveLength(2);
    expect(full.series[0]!.recurrence).toBe('quadrennial');
    expect(full.eventMetadata).toEqual({ context: 'x' });
    // The real record (list page) has no series or eventMetadata: empty, not invented.
    const bare = parseEventFull(events[0]);
    expect(bare.series).toEqual([]);
    expect(bare.eventMetadata).toBeNull();
  });

  it('rejects malformed events with the path', () => {
    const mut = (f: (e: Record<string, unknown>) => void): unknown => {
      const v = clone(events);
      f(v[0]!);
      return v;
    };
    expect(
      pathOf(() =>
        parseEvents(
          mut((e) => {
            e['active'] = 'yes';
          }),
        ),
      ),
    ).toBe('[0].active');
    expect(
      pathOf(() =>
        parseEvents(
          mut((e) => {
            e['startDate'] = 'soon';
          }),
        ),
      ),
    ).toBe('[0].startDate');
    expect(
      pathOf(() =>
        parseEvents(
          mut((e) => {
            (e['markets'] as Array<Record<string, unknown>>)[1]!['outcomes'] = '["Yes", 2]';
          }),
        ),
      ),
    ).toBe('[0].markets[1].outcomes[1]');
    expect(
      pathOf(() =>
        parseEvents(
          mut((e) => {
            (e['markets'] as Array<Record<string, unknown>>)[0]!['clobTokenIds'] = '[not json';
          }),
        ),
      ),
    ).toBe('[0].markets[0].clobTokenIds');
    expect(
      pathOf(() =>
        parseEvents(
          mut((e) => {
            (e['tags'] as Array<Record<string, unknown>>)[3]!['requiresTranslation'] = 0;
          }),
        ),
      ),
    ).toBe('[0].tags[3].requiresTranslation');
    expect(pathOf(() => parseEventFull({ ...events[0], markets: undefined }))).toBe('markets');
  });
});

describe('tags', () => {
  it('parses real tags (extra keys such as forceShow are ignored)', () => {
    const tags = parseTags(events[0]!['tags']);
    expect(tags.map((t) => t.slug)).toContain('politics');
    expect(pathOf(() => parseTags([{ id: 2, label: 'x', slug: 'x' }]))).toBe('[0].id');
  });
});

describe('comments', () => {
  const profile = {
    name: 'n',
    pseudonym: 'p',
    bio: '',
    proxyWallet: '0xa',
    baseAddress: '0xb',
    profileImage: '',
    displayUsernamePublic: true,
    isMod: false,
    isCreator: false,
    profileImageOptimized: {},
    positions: [{ tokenId: '1604', positionSize: '12.5' }],
  };
  const reply: WireComment = {
    id: '2',
    body: 'reply',
    parentEntityType: 'Event',
    parentEntityID: 30829,
    parentCommentID: '1',
    userAddress: '0xa',
    replyAddress: '0xc',
    createdAt: '2026-03-11T15:13:38Z',
    updatedAt: '2026-03-11T15:13:38Z',
    profile,
    reactions: [{ reactionType: 'HEART' }],
    reportCount: 0,
    reactionCount: 1,
    replyCount: 0,
    replies: [],
  };
  const top: WireComment = { ...reply, id: '1', body: 'top', parentCommentID: '', replyCount: 1, replies: [reply] };

  it('parses nested replies and position sizes as shares', () => {
    const [c] = parseComments([top]);
    expect(c!.parentCommentId).toBeNull();
    expect(c!.replies[0]!.parentCommentId).toBe('1');
    expect(c!.replies[0]!.reactions).toEqual([{ reactionType: 'HEART' }]);
    expect(c!.profile.positions).toEqual([{ tokenId: '1604', positionSize: 12_500_000 }]);
  });

  it('rejects malformed comments with the path, also deep in replies', () => {
    expect(pathOf(() => parseComments([{ ...top, replies: [{ ...reply, replyCount: -1 }] }]))).toBe(
      '[0].replies[0].replyCount',
    );
    expect(pathOf(() => parseComments([{ ...top, parentEntityID: '30829' }]))).toBe('[0].parentEntityID');
    expect(
      pathOf(() =>
        parseComments([{ ...top, profile: { ...profile, positions: [{ tokenId: '1', positionSize: 'NaN' }] } }]),
      ),
    ).toBe('[0].profile.positions[0].positionSize');
    expect(pathOf(() => parseComments([{ ...top, reactions: [1] }]))).toBe('[0].reactions[0]');
  });
});

describe('leaderboard', () => {
  const e: WireLeaderboardEntry = {
    rank: '1',
    proxyWallet: '0xa',
    userName: 'whale',
    vol: 1234567.891,
    pnl: -12.5,
    profileImage: '',
    xUsername: null,
    verifiedBadge: 'true',
  };

  it('parses ranks to numbers and money to millionths; null stays null', () => {
    expect(parseLeaderboard([e])[0]).toEqual({ ...e, rank: 1, vol: 1_234_567_891_000, pnl: -12_500_000 });
  });

  it('rejects malformed entries with the path', () => {
    expect(pathOf(() => parseLeaderboard([{ ...e, rank: 1 }]))).toBe('[0].rank');
    expect(pathOf(() => parseLeaderboard([{ ...e, vol: Number.NaN }]))).toBe('[0].vol');
    expect(pathOf(() => parseLeaderboard([{ ...e, xUsername: undefined }]))).toBe('[0].xUsername');
  });
});

describe('public search', () => {
  it('parses events, tags and profiles', () => {
    const r = parsePublicSearch({
      events,
      tags: events[0]!['tags'],
      profiles: [{ name: 'n', pseudonym: 'p', proxyWallet: '0xa', profileImage: '' }],
    });
    expect(r.events).toHaveLength(1);
    expect(r.tags).toHaveLength(7);
    expect(r.profiles[0]!.proxyWallet).toBe('0xa');
    expect(pathOf(() => parsePublicSearch({ events: [], tags: [], profiles: [{ name: 'n' }] }))).toBe(
      'profiles[0].pseudonym',
    );
  });
});
