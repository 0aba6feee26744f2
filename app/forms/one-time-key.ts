/** The hidden field that carries a form's one-time key (app/services/one-time-key.server.ts). */
export const ONE_TIME_KEY_FIELD = "idempotencyKey";
