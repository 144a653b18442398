import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';

/** An OpenAPI tag: the group a module's operations appear under in the API reference. */
export interface ApiTag {
  name: string;
  description: string;
}

/**
 * A module's HTTP face (docs/architecture.md "Modules wire themselves"): the OpenAPI tags its
 * operations use, the shared component schemas ($id) its routes reference, and the plugin that
 * registers its routes given the services it needs. `Needs` is a structural slice of the
 * composition root, so a module never imports the root and the compiler checks the root provides it.
 * app.ts lists modules; each module lists its own routes.
 */
export interface ApiModule<Needs> {
  name: string;
  tags?: readonly ApiTag[];
  schemas?: readonly TSchema[];
  routes(services: Needs): FastifyPluginAsyncTypebox;
}

/** The Fastify instance a module's plugin registers its routes on, for the helpers a plugin is split into. */
export type RouteApp = Parameters<FastifyPluginAsyncTypebox>[0];

export function defineApiModule<Needs>(module: ApiModule<Needs>): ApiModule<Needs> {
  return module;
}
