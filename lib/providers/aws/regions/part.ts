/** One Region's provider in a multi-Region one (build.ts makes them; provider.ts and fingerprints.ts read them). */
import type { AwsProvider } from '../provider.js';

export interface RegionalPart {
  region: string;
  provider: AwsProvider;
}
