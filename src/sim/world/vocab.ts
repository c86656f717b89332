// Word lists of the synthetic world. Invariants kept here: names of people, teams, companies and
// films are fictional (the world must not make claims about real people); places, coins, indices and
// institutions are real nouns only where a market about them is generic (a city's temperature, a
// coin's price). Lists are frozen: their order is part of what a seed reproduces.

export const FIRST_NAMES = [
  'Alice',
  'Bruno',
  'Carla',
  'Dmitri',
  'Elena',
  'Felix',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Kara',
  'Luca',
  'Maya',
  'Nikolai',
  'Olga',
  'Pablo',
  'Quinn',
  'Rosa',
  'Stefan',
  'Tara',
  'Umar',
  'Vera',
  'Walter',
  'Yara',
  'Zane',
  'Amara',
  'Bastian',
  'Celine',
  'Darius',
  'Esme',
] as const;

export const LAST_NAMES = [
  'Moreau',
  'Okafor',
  'Lindqvist',
  'Castellanos',
  'Whitfield',
  'Brandt',
  'Nakamura',
  'Ferreira',
  'Halvorsen',
  'Petrov',
  'Quintero',
  'Rasmussen',
  'Sato',
  'Thornbury',
  'Underwood',
  'Valdez',
  'Wexler',
  'Yilmaz',
  'Zeller',
  'Ashdown',
  'Baptiste',
  'Corvin',
  'Delacroix',
  'Eastwick',
  'Fairbanks',
] as const;

export const COUNTRIES = [
  'France',
  'Brazil',
  'Canada',
  'Germany',
  'Japan',
  'Mexico',
  'Poland',
  'Chile',
  'Portugal',
  'Kenya',
  'Norway',
  'South Korea',
  'Argentina',
  'Ireland',
  'New Zealand',
] as const;

export const OFFICES = ['presidential', 'parliamentary', 'general', 'senate'] as const;

export const POLICY_ACTIONS = [
  'sign the infrastructure bill',
  'announce a cabinet reshuffle',
  'call a snap election',
  'visit the border region',
  'veto the budget',
  'resign',
  'meet the opposition leader',
  'approve the trade agreement',
] as const;

export const CITIES = [
  'Riverton',
  'Lakeside',
  'Port Elling',
  'Granite Falls',
  'Westbrook',
  'Harbor City',
  'Redmont',
  'Silver Bay',
  'Oakridge',
  'Summit Valley',
  'Cedar Point',
  'Brightwater',
  'Ironwood',
  'Fairhaven',
] as const;

export const MASCOTS = [
  'Falcons',
  'Comets',
  'Wolves',
  'Mariners',
  'Titans',
  'Rangers',
  'Owls',
  'Stallions',
  'Pioneers',
  'Storm',
  'Vipers',
  'Bears',
  'Knights',
  'Herons',
] as const;

export const LEAGUES = [
  { label: 'NBA', sport: 'basketball', tag: 'NBA' },
  { label: 'NFL', sport: 'football', tag: 'NFL' },
  { label: 'NHL', sport: 'hockey', tag: 'NHL' },
  { label: 'MLB', sport: 'baseball', tag: 'MLB' },
  { label: 'Premier League', sport: 'soccer', tag: 'Soccer' },
] as const;

export const COINS = [
  { name: 'Bitcoin', symbol: 'BTC', tag: 'Bitcoin', levels: [90_000, 100_000, 110_000, 120_000, 130_000, 140_000] },
  { name: 'Ethereum', symbol: 'ETH', tag: 'Ethereum', levels: [2_500, 3_000, 3_500, 4_000, 4_500, 5_000] },
  { name: 'Solana', symbol: 'SOL', tag: 'Solana', levels: [120, 150, 180, 200, 250, 300] },
  { name: 'XRP', symbol: 'XRP', tag: 'XRP', levels: [2, 2.5, 3, 3.5, 4] },
  { name: 'Dogecoin', symbol: 'DOGE', tag: 'Dogecoin', levels: [0.15, 0.2, 0.25, 0.3, 0.4] },
] as const;

export const INDICES = [
  { name: 'S&P 500', symbol: 'SPX', levels: [6_000, 6_250, 6_500, 6_750, 7_000] },
  { name: 'Nasdaq 100', symbol: 'NDX', levels: [21_000, 22_000, 23_000, 24_000] },
  { name: 'Dow Jones', symbol: 'DJI', levels: [42_000, 44_000, 46_000, 48_000] },
] as const;

export const COMPANIES = [
  { name: 'Northwind Labs', ticker: 'NWL' },
  { name: 'Contoso Dynamics', ticker: 'CTSO' },
  { name: 'Fabrikam AI', ticker: 'FBKM' },
  { name: 'Tailspin Systems', ticker: 'TSPN' },
  { name: 'Litware Robotics', ticker: 'LTWR' },
  { name: 'Adatum Cloud', ticker: 'ADTM' },
  { name: 'Proseware Chips', ticker: 'PRSW' },
  { name: 'Wingtip Motors', ticker: 'WGTP' },
] as const;

export const PRODUCTS = [
  'a foldable phone',
  'a new flagship model',
  'an AR headset',
  'a robotaxi service',
  'a home robot',
  'a reasoning model',
] as const;

export const FILMS = [
  'The Glass Harbor',
  'Midnight Cartographer',
  'Echoes of Verano',
  'Paper Lanterns',
  'The Last Orchard',
  'Signal Lost',
  'Crimson Tide Pools',
  'A Quiet Frontier',
] as const;

export const AWARDS = [
  { name: 'Golden Reel Awards', category: 'Best Picture' },
  { name: 'Silver Lyre Music Awards', category: 'Album of the Year' },
  { name: 'Meridian Book Prize', category: 'Fiction' },
] as const;

export const MENTION_WORDS = [
  'tariff',
  'crypto',
  'inflation',
  'historic',
  'border',
  'AI',
  'deal',
  'tremendous',
] as const;
export const MENTION_OCCASIONS = [
  'the press conference',
  'the rally',
  'the televised debate',
  'the summit address',
  'the interview',
] as const;

export const WEATHER_CITIES = [
  { name: 'New York', unit: 'F', base: 60 },
  { name: 'London', unit: 'C', base: 14 },
  { name: 'Tokyo', unit: 'C', base: 18 },
  { name: 'Chicago', unit: 'F', base: 55 },
  { name: 'Miami', unit: 'F', base: 82 },
  { name: 'Seoul', unit: 'C', base: 15 },
  { name: 'Paris', unit: 'C', base: 15 },
  { name: 'Dallas', unit: 'F', base: 72 },
] as const;

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

export const FED_OUTCOMES = ['No change', '25 bps decrease', '50+ bps decrease', '25+ bps increase'] as const;

export const COMMENT_OPENERS = [
  'Honestly',
  'Not financial advice, but',
  'Calling it now:',
  'Hot take:',
  'Look at the volume,',
  'Remember this:',
  'Odds are mispriced.',
  'Interesting.',
  'Bought more.',
  'Sold half my position.',
] as const;

export const COMMENT_BODIES = [
  'this is way underpriced.',
  'the market is overreacting to the news.',
  'easy money on the other side.',
  'I would not touch this until the debate.',
  'the resolution source is pretty clear here.',
  'whales are moving this book.',
  'liquidity is thin, be careful with size.',
  'this resolves before anyone expects.',
  'the polls say otherwise.',
  'spread is too wide to bother.',
] as const;

export const REPLY_BODIES = [
  'Disagree, the fundamentals point the other way.',
  'Source?',
  'Agreed, loading up.',
  'We will see on resolution day.',
  'You said the same last week.',
  'Fair point.',
  'This aged well.',
  'Check the order book before posting.',
] as const;

export const BIO_LINES = [
  'Forecasting enthusiast.',
  'Trading probabilities since 2020.',
  'Politics nerd. Sports fan.',
  'Quant by day.',
  'Markets are the best polls.',
  'Mostly weather and macro.',
  '',
  'Long volatility, short certainty.',
] as const;

export const PSEUDO_ADJECTIVES = [
  'Glossy',
  'Quiet',
  'Brisk',
  'Velvet',
  'Amber',
  'Crisp',
  'Lucky',
  'Rapid',
  'Silent',
  'Bold',
  'Mellow',
  'Frosty',
] as const;

export const PSEUDO_NOUNS = [
  'Anything',
  'Harbor',
  'Comet',
  'Lantern',
  'Meadow',
  'Falcon',
  'Cipher',
  'Pebble',
  'Summit',
  'Orchid',
  'Beacon',
  'Tundra',
] as const;

export const REACTION_TYPES = ['HEART', 'THUMBS_UP', 'FIRE', 'LAUGH'] as const;

/** Topic tags beyond the category tags; every tag label a template uses must be here or a category label. */
export const TOPIC_TAGS = [
  'Elections',
  'World Elections',
  'Geopolitics',
  'NBA',
  'NFL',
  'NHL',
  'MLB',
  'Soccer',
  'Games',
  'Bitcoin',
  'Ethereum',
  'Solana',
  'XRP',
  'Dogecoin',
  'Crypto Prices',
  'Up or Down',
  'Stocks',
  'Indices',
  'Earnings',
  'Movies',
  'Box Office',
  'Awards',
  'Music',
  'Books',
  'Speeches',
  'Temperature',
  'Daily Temperature',
  'Fed',
  'Fed Rates',
  'Inflation',
  'CPI',
  'Jobs',
  'AI',
  'Big Tech',
  'Product Launches',
  'Recurring',
] as const;

export const CATEGORY_LABELS = {
  politics: 'Politics',
  sports: 'Sports',
  crypto: 'Crypto',
  finance: 'Finance',
  culture: 'Culture',
  mentions: 'Mentions',
  weather: 'Weather',
  economics: 'Economics',
  tech: 'Tech',
} as const;
