export interface RawServerSentEvent {
  event: string;
  id: string | undefined;
  data: string;
}
export declare function parseEventStream(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<RawServerSentEvent>;
