// Where log lines go and in which form (LOG_FORMAT): JSON lines for log storage, or on a terminal
// one short coloured line per request (method, path, status, time) and the message of any other
// line. Pretty output is formatted on the main thread: a transport's worker could not take the
// formatting function, and a terminal shows far fewer lines than a log collector takes.
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.ts';

interface RequestLine {
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

export function usePrettyLogs(format: Config['logFormat'], isTTY: boolean | undefined): boolean {
  return format === 'pretty' || (format === 'auto' && isTTY === true);
}

/** The request line, e.g. `POST /call/start 200 3ms`; undefined for a line about no request. */
export function requestSummary(log: RequestLine): string | undefined {
  if (!log.req?.method || log.res?.statusCode === undefined) return undefined;
  return `${log.req.method} ${log.req.url ?? ''} ${log.res.statusCode} ${Math.round(log.responseTime ?? 0)}ms`;
}

export function loggerFor(config: Pick<Config, 'logLevel' | 'logFormat'>, stdout: NodeJS.WriteStream = process.stdout): Logger {
  if (!usePrettyLogs(config.logFormat, stdout.isTTY)) return pino({ level: config.logLevel });
  const stream = pretty({
    destination: stdout,
    colorize: stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    singleLine: true,
    ignore: 'pid,hostname,req,res,responseTime',
    messageFormat: (log, messageKey, _level, { colors }) => {
      const line = requestSummary(log);
      if (line === undefined) return typeof log[messageKey] === 'string' ? log[messageKey] : '';
      const status = (log as RequestLine).res!.statusCode!;
      const paint = status >= 500 ? colors.red : status >= 400 ? colors.yellow : colors.green;
      return paint(line);
    },
  });
  return pino({ level: config.logLevel }, stream);
}
