/**
 * Serves the HTTP function (functions/http.ts) on 127.0.0.1 the way a Lambda function URL would:
 * each request becomes an APIGatewayProxyEventV2 and a Lambda-like context, and the handler's
 * result becomes the response. The handler code is the deployed code, unchanged.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

type HttpHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

export function lambdaContext(functionName: string, timeoutMs = 60_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface FunctionServer {
  url: string;
  close(): Promise<void>;
}

export async function startFunctionServer(
  handler: HttpHandler,
  functionName = 'http',
): Promise<FunctionServer> {
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const body = await readBody(req);
        const headers = Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
        );
        const event = {
          version: '2.0',
          routeKey: '$default',
          rawPath: req.url ?? '/',
          rawQueryString: '',
          headers,
          body,
          isBase64Encoded: false,
          requestContext: { http: { method: req.method ?? 'POST', path: req.url ?? '/' } },
        } as unknown as APIGatewayProxyEventV2;
        const result = await handler(event, lambdaContext(functionName));
        res.writeHead(result.statusCode ?? 200, result.headers as Record<string, string>);
        res.end(result.body ?? '');
      } catch (err) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: err instanceof Error ? err.message : String(err) }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
