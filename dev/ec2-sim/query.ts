/**
 * EC2's query protocol input (`ec2` protocol, not ELBv2's `awsQuery`): lists are flattened
 * without `.member.` and under their singular location names (`VpcId.1`, `SubnetId.1`,
 * `Filter.1.Name`, `Filter.1.Value.1`).
 */
import { Ec2Error, invalidParameter } from './errors.js';

export interface Filter {
  name: string;
  values: string[];
}

export interface DescribeInput {
  ids: string[];
  filters: Filter[];
  maxResults?: number;
  nextToken?: string;
  dryRun: boolean;
}

export class Ec2Params {
  readonly values: ReadonlyMap<string, string>;

  constructor(body: string) {
    this.values = new Map(new URLSearchParams(body));
  }

  get(key: string): string | undefined {
    return this.values.get(key);
  }

  /** `Name.1`, `Name.2`, ... until the first gap, as the SDK numbers them. */
  list(prefix: string): string[] {
    const out: string[] = [];
    for (let i = 1; this.values.has(`${prefix}.${i}`); i++) out.push(this.values.get(`${prefix}.${i}`)!);
    return out;
  }

  filters(): Filter[] {
    const out: Filter[] = [];
    for (let i = 1; this.values.has(`Filter.${i}.Name`); i++) {
      out.push({ name: this.values.get(`Filter.${i}.Name`)!, values: this.list(`Filter.${i}.Value`) });
    }
    return out;
  }

  /** `Tag.N.Key` / `Tag.N.Value` (CreateTags, DeleteTags): a value absent stays absent. */
  tags(prefix = 'Tag'): Array<{ key: string; value?: string }> {
    const out: Array<{ key: string; value?: string }> = [];
    for (let i = 1; this.values.has(`${prefix}.${i}.Key`); i++) {
      const value = this.values.get(`${prefix}.${i}.Value`);
      out.push({ key: this.values.get(`${prefix}.${i}.Key`)!, ...(value !== undefined ? { value } : {}) });
    }
    return out;
  }

  dryRun(): boolean {
    const dryRun = this.values.get('DryRun');
    if (dryRun !== undefined && dryRun !== 'true' && dryRun !== 'false')
      throw new Ec2Error('InvalidParameterValue', `Invalid value '${dryRun}' for dryRun`);
    return dryRun === 'true';
  }

  /** A Describe call's common members; `idParam` is the ID list's location name. */
  describe(idParam: string): DescribeInput {
    const raw = this.values.get('MaxResults');
    let maxResults: number | undefined;
    if (raw !== undefined) {
      maxResults = Number(raw);
      if (!/^\d+$/.test(raw) || maxResults < 5 || maxResults > 1000) {
        throw invalidParameter(
          `Value ( ${raw} ) for parameter maxResults is invalid. Expecting a value between 5 and 1000.`,
        );
      }
    }
    const dryRun = this.values.get('DryRun');
    if (dryRun !== undefined && dryRun !== 'true' && dryRun !== 'false')
      throw new Ec2Error('InvalidParameterValue', `Invalid value '${dryRun}' for dryRun`);
    const nextToken = this.values.get('NextToken');
    return {
      ids: this.list(idParam),
      filters: this.filters(),
      ...(maxResults !== undefined ? { maxResults } : {}),
      ...(nextToken !== undefined ? { nextToken } : {}),
      dryRun: dryRun === 'true',
    };
  }
}
