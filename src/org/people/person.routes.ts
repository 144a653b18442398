import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, requireBinaryBody, withErrors } from '../../platform/http/index.ts';
import { VigilError } from '../../platform/lib/index.ts';
import { MAX_FACE_JPEG_BYTES } from '../../ingest/faces/index.ts';
import type { PeopleService } from './person.service.ts';
import {
  CreatePersonBody,
  DeletedPerson,
  EnrolFaceQuery,
  EnrolFacesBody,
  EnrolledFaces,
  MAX_ENROL_PHOTOS,
  PersonFaceSchema,
  PersonIdParams,
  PersonList,
  PersonListQuery,
} from './person.schemas.ts';

const tags = ['People'];
const security = [{ bearerAuth: [] }];
// both surfaces: organization keys read with scenes:read and change with operator
// (the capability that also switches face recognition on); household keys reach their household
const read = { surface: 'any' as const, capability: 'scenes:read' as const };
const write = { surface: 'any' as const, capability: 'operator' as const };

export const personRoutes =
  (people: PeopleService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v1/people',
      {
        config: write,
        schema: {
          tags,
          security,
          operationId: 'createPerson',
          summary: 'Add a known person',
          description:
            'Staff, contractors, family, the nanny: someone whose face can be enrolled (POST /v1/people/{id}/faces) and then recognized on phone frames when face_recognition is on. Audited.',
          body: CreatePersonBody,
          response: withErrors({ 201: Type.Ref('Person') }),
        },
      },
      async (req, reply) => reply.code(201).send(await people.create(principalOf(req), actorOf(req), req.body)),
    );

    app.get(
      '/v1/people',
      {
        config: read,
        schema: {
          tags,
          security,
          operationId: 'listPeople',
          summary: 'List known people, newest first',
          querystring: PersonListQuery,
          response: withErrors({ 200: PersonList }),
        },
      },
      async (req) => people.list(principalOf(req), req.query),
    );

    app.get(
      '/v1/people/:id',
      {
        config: read,
        schema: {
          tags,
          security,
          operationId: 'getPerson',
          summary: 'Fetch a known person',
          params: PersonIdParams,
          response: withErrors({ 200: Type.Ref('Person') }),
        },
      },
      async (req) => people.get(principalOf(req), req.params.id),
    );

    app.delete(
      '/v1/people/:id',
      {
        config: write,
        schema: {
          tags,
          security,
          operationId: 'deletePerson',
          summary: 'Erase a known person',
          description:
            'Right to erasure: the person and every face descriptor and kept face crop of them are deleted in one transaction. Audited (the audit names the person, never a descriptor).',
          params: PersonIdParams,
          response: withErrors({ 200: DeletedPerson }),
        },
      },
      async (req) => people.remove(principalOf(req), actorOf(req), req.params.id),
    );

    await app.register(enrolFaceRoute(people));
    await app.register(enrolFacesRoute(people));
  };

/** Several photos in one JSON body: base64 makes 2 MiB of JPEG about 2.7 MiB of text. */
const ENROL_BATCH_BODY_LIMIT = MAX_ENROL_PHOTOS * Math.ceil((MAX_FACE_JPEG_BYTES * 4) / 3) + 64 * 1024;

const enrolFacesRoute =
  (people: PeopleService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.setErrorHandler((err: { code?: string }) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        throw new VigilError('payload_too_large', `Send at most ${MAX_ENROL_PHOTOS} photos of at most ${MAX_FACE_JPEG_BYTES} bytes (2 MiB) each.`, {
          param: 'body',
        });
      }
      throw err;
    });
    app.post(
      '/v1/people/:id/faces/batch',
      {
        config: write,
        bodyLimit: ENROL_BATCH_BODY_LIMIT,
        schema: {
          tags,
          security,
          operationId: 'enrolPersonFaces',
          summary: 'Enrol faces of a known person from several photos',
          description:
            `1 to ${MAX_ENROL_PHOTOS} JPEG photos (base64, ≤ 2 MiB each) of one person, enrolled together or not at all: each photo\u2019s one face is described and stored as with POST /v1/people/{id}/faces. ` +
            'A photo that cannot be enrolled refuses the whole request, naming it (param photos[i]): 422 no_face, several_faces or face_too_small, 400 invalid_image. ' +
            'Photos in different light, angles and cameras make recognition surer: live video decides a person over several frames against the best of their faces. Audited (one entry per face).',
          params: PersonIdParams,
          body: EnrolFacesBody,
          response: withErrors({ 201: EnrolledFaces }),
        },
      },
      async (req, reply) =>
        reply.code(201).send(await people.enrolFaces(principalOf(req), actorOf(req), req.params.id, req.body.photos, req.body.keep_image ?? false)),
    );
  };

/** Body "validation" for the photo: JSON Schema has nothing to say about JPEG bytes. */
const acceptDecodedLater = () => true;

/** The enrolment photo is JPEG bytes: its own plugin keeps the image/jpeg parser and limit here. */
const enrolFaceRoute =
  (people: PeopleService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('image/jpeg', { parseAs: 'buffer', bodyLimit: MAX_FACE_JPEG_BYTES }, (_req, body, done) => done(null, body));
    app.setErrorHandler((err: { code?: string }) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        throw new VigilError('payload_too_large', `An enrolment photo may be at most ${MAX_FACE_JPEG_BYTES} bytes (2 MiB).`, { param: 'body' });
      }
      if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' || err.code === 'FST_ERR_CTP_EMPTY_TYPE') {
        throw new VigilError('unsupported_media_type', 'Send the photo as Content-Type: image/jpeg.', { param: 'Content-Type' });
      }
      throw err;
    });

    app.post(
      '/v1/people/:id/faces',
      {
        config: write,
        schema: {
          tags,
          security,
          operationId: 'enrolPersonFace',
          summary: 'Enrol a face of a known person from a JPEG',
          description:
            'The one face of the photo (≤ 2 MiB, EXIF orientation applied) is described and its descriptor stored; the photo is never stored, and a JPEG crop of the face only with keep_image=true. ' +
            'Refused with 422 no_face, several_faces (two or more faces of similar size) or face_too_small (under 64 px); 400 invalid_image when the bytes are not a JPEG. ' +
            'Enrol several faces per person, from photos like what the cameras see: recognition takes a person\u2019s best face. Audited.',
          params: PersonIdParams,
          querystring: EnrolFaceQuery,
          body: Type.Unsafe<Buffer>({
            description: 'the photo as JPEG bytes',
            content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
          }),
          response: withErrors({ 201: PersonFaceSchema }),
        },
        validatorCompiler: (req) => (req.httpPart === 'body' ? acceptDecodedLater : app.validatorCompiler!(req)),
        preValidation: requireBinaryBody('the photo', 'image/jpeg', 'invalid_image'),
      },
      async (req, reply) =>
        reply.code(201).send(await people.enrolFace(principalOf(req), actorOf(req), req.params.id, req.body, req.query.keep_image ?? false)),
    );
  };
