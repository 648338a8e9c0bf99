/**
 * Structured JSON logging for functions, the forwarder and local tools.
 *
 * `lib/` code depends only on the small `Logger` interface so that a test can pass a recording
 * logger; the default implementation is Powertools for AWS Lambda's Logger, whose JSON lines
 * CloudWatch Logs Insights understands, with a formatter that redacts credentials wherever they
 * appear in the attributes of a line.
 */
import { Logger as PowertoolsLogger, LogFormatter, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { redact } from './redact.js';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line (e.g. the object key). */
  child(fields: LogFields): Logger;
}

class RedactingFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const base: LogAttributes = {
      level: attributes.logLevel,
      message: attributes.message,
      timestamp: this.formatTimestamp(attributes.timestamp),
      service: attributes.serviceName,
      ...(attributes.lambdaContext ? { requestId: attributes.lambdaContext.awsRequestId } : {}),
      ...(attributes.xRayTraceId ? { xrayTraceId: attributes.xRayTraceId } : {}),
    };
    return new LogItem({ attributes: base }).addAttributes(redact(additional) as LogAttributes);
  }
}

/** Keys Powertools keeps for itself: it drops such an attribute and logs a warning instead. */
const POWERTOOLS_RESERVED = new Set(['level', 'message', 'sampling_rate', 'service', 'timestamp']);

/** `{ service: 'default/serve' }` → `{ attr_service: 'default/serve' }`, so the value is kept. */
function unreserved(fields: LogFields | undefined): LogFields {
  if (!fields) return {};
  if (!Object.keys(fields).some((k) => POWERTOOLS_RESERVED.has(k))) return fields;
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [POWERTOOLS_RESERVED.has(k) ? `attr_${k}` : k, v]),
  );
}

class PowertoolsAdapter implements Logger {
  constructor(readonly inner: PowertoolsLogger) {}
  debug(message: string, fields?: LogFields): void {
    this.inner.debug(message, unreserved(fields));
  }
  info(message: string, fields?: LogFields): void {
    this.inner.info(message, unreserved(fields));
  }
  warn(message: string, fields?: LogFields): void {
    this.inner.warn(message, unreserved(fields));
  }
  error(message: string, fields?: LogFields): void {
    this.inner.error(message, unreserved(fields));
  }
  child(fields: LogFields): Logger {
    const inner = this.inner.createChild();
    inner.appendKeys(redact(unreserved(fields)) as LogAttributes);
    return new PowertoolsAdapter(inner);
  }
}

export interface CreateLoggerOptions {
  serviceName?: string;
  /** Defaults to $LOG_LEVEL, then INFO. */
  level?: string;
}

/** The Powertools logger behind a Logger made by `createLogger`, for middy's `injectLambdaContext`. */
export function powertoolsOf(logger: Logger): PowertoolsLogger | undefined {
  return logger instanceof PowertoolsAdapter ? logger.inner : undefined;
}

export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const level = (options.level ?? process.env.LOG_LEVEL ?? 'INFO').toUpperCase();
  return new PowertoolsAdapter(
    new PowertoolsLogger({
      serviceName:
        options.serviceName ?? process.env.POWERTOOLS_SERVICE_NAME ?? 'multicluster-cloud-provider',
      logLevel: level as 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT',
      logFormatter: new RedactingFormatter(),
    }),
  );
}

/** A logger that keeps lines in memory: for tests, and for callers that want to inspect what was said. */
export class MemoryLogger implements Logger {
  readonly lines: Array<{ level: string; message: string; fields: LogFields }>;
  constructor(
    private readonly base: LogFields = {},
    lines?: Array<{ level: string; message: string; fields: LogFields }>,
  ) {
    this.lines = lines ?? [];
  }
  private push(level: string, message: string, fields?: LogFields): void {
    this.lines.push({ level, message, fields: redact({ ...this.base, ...fields }) as LogFields });
  }
  debug(message: string, fields?: LogFields): void {
    this.push('DEBUG', message, fields);
  }
  info(message: string, fields?: LogFields): void {
    this.push('INFO', message, fields);
  }
  warn(message: string, fields?: LogFields): void {
    this.push('WARN', message, fields);
  }
  error(message: string, fields?: LogFields): void {
    this.push('ERROR', message, fields);
  }
  child(fields: LogFields): Logger {
    return new MemoryLogger({ ...this.base, ...fields }, this.lines);
  }
}

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};
