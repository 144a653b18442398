import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, Name, prefixedId, Text, MAX_NAME_CHARS } from '../../platform/http/index.ts';

/** The longest note about a known person. */
const MAX_PERSON_NOTE_CHARS = 2000;

export const CreatePersonBody = Type.Object(
  {
    name: Name({ maxLength: MAX_NAME_CHARS, description: 'who this is, as operators and the household call them', examples: ['Maria Santos'] }),
    note: Type.Optional(Text({ maxLength: MAX_PERSON_NOTE_CHARS, description: 'free text: role, why they are known', examples: ['night cleaner, Mon–Fri'] })),
  },
  { additionalProperties: false },
);
export type CreatePersonBodyT = Static<typeof CreatePersonBody>;

export const PersonSchema = Type.Object(
  {
    id: prefixedId('person'),
    object: Type.Literal('person'),
    name: Type.String(),
    note: Type.Union([Type.String(), Type.Null()]),
    faces: Type.Integer({ minimum: 0, description: 'enrolled faces (descriptors); recognition compares a face with the best of them' }),
    kept_images: Type.Integer({ minimum: 0, description: 'enrolled faces whose JPEG crop was kept (keep_image=true)' }),
    created_at: IsoTime,
    updated_at: IsoTime,
  },
  { $id: 'Person' },
);
export type PersonView = Static<typeof PersonSchema>;

export const PersonFaceSchema = Type.Object({
  id: prefixedId('face'),
  object: Type.Literal('person_face'),
  person_id: prefixedId('person'),
  model: Type.String({ description: 'the descriptor model the face was described with' }),
  size: Type.Integer({ minimum: 0, description: 'the face’s side in pixels of the photo (at most 1280 px on its longer side)' }),
  box: Type.Array(Type.Number({ minimum: 0, maximum: 1 }), {
    minItems: 4,
    maxItems: 4,
    description: 'where the face was in the photo, normalised: left, top, width, height',
  }),
  image_kept: Type.Boolean({ description: 'whether a JPEG crop of the face was stored (keep_image=true); the photo itself never is' }),
  created_at: IsoTime,
});
export type PersonFaceView = Static<typeof PersonFaceSchema>;

export const PersonIdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'person_…' }) });
export const PersonList = ListOf(Type.Ref('Person'));
export const PersonListQuery = ListQuery;
export const EnrolFaceQuery = Type.Object(
  {
    keep_image: Type.Optional(
      Type.Boolean({ default: false, description: 'also keep a JPEG crop of the face (never the whole photo); default false: only the descriptor is stored' }),
    ),
  },
  { additionalProperties: false },
);
export const DeletedPerson = Type.Object({
  id: Type.String(),
  object: Type.Literal('person'),
  deleted: Type.Literal(true),
  faces_deleted: Type.Integer({ minimum: 0, description: 'descriptors (and kept crops) erased with the person' }),
  recordings: Type.Literal('kept', {
    description:
      'camera recordings are not erased with a person: they show places, not a person\'s record, and may be evidence; an operator deletes a range of a stream\'s recording, audited (README, "Recordings")',
  }),
});

/** Photos one enrolment request may carry (each at most 2 MiB of JPEG, sent as base64). */
export const MAX_ENROL_PHOTOS = 5;

export const EnrolFacesBody = Type.Object(
  {
    photos: Type.Array(
      Type.String({
        minLength: 4,
        maxLength: Math.ceil((2 * 1024 * 1024) / 3) * 4,
        contentEncoding: 'base64',
        contentMediaType: 'image/jpeg',
        description: 'a JPEG photo (≤ 2 MiB), base64',
      }),
      {
        minItems: 1,
        maxItems: MAX_ENROL_PHOTOS,
        description: `1 to ${MAX_ENROL_PHOTOS} photos of the person, each with their one face; different photos (light, angle, camera) make recognition surer`,
      },
    ),
    keep_image: Type.Optional(Type.Boolean({ default: false, description: 'also keep a JPEG crop of each face (never the photos); default false' })),
  },
  { additionalProperties: false },
);
export type EnrolFacesBodyT = Static<typeof EnrolFacesBody>;

export const EnrolledFaces = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(PersonFaceSchema, { description: 'one enrolled face per photo, in the order sent' }),
});
