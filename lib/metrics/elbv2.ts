/**
 * Counts every attempt the ELBv2 client makes, by action, and the attempts answered with
 * throttling. It sits in the `deserialize` step, inside the SDK's retry loop, so a call retried
 * three times counts three times: that is what the account's ELBv2 API quota sees.
 */
import type {
  AbsoluteLocation,
  DeserializeHandlerOptions,
  DeserializeMiddleware,
  MetadataBearer,
} from '@smithy/types';
import type { OperatorMetrics } from './index.js';

export const ELBV2_CALL_METRICS: DeserializeHandlerOptions & AbsoluteLocation & { name: string } = {
  step: 'deserialize',
  // Ahead of the deserializer, so that a failed attempt arrives here as the parsed service error.
  priority: 'high',
  name: 'elbv2CallMetrics',
};

export function elbv2CallMetrics(
  sink: OperatorMetrics,
  isThrottling: (err: unknown) => boolean,
): DeserializeMiddleware<object, MetadataBearer> {
  return (next, context) => async (args) => {
    const action = (context.commandName ?? 'Unknown').replace(/Command$/, '');
    try {
      const output = await next(args);
      sink.elbv2Call(action, false);
      return output;
    } catch (err) {
      sink.elbv2Call(action, isThrottling(err));
      throw err;
    }
  };
}
