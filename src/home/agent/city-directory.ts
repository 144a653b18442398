/**
 * Offline city lookup for "we live in Lisbon": coordinates and IANA zone from the city table
 * shipped in the city-timezones package (no network at run time).
 */
import { createRequire } from 'node:module';

interface CityRow {
  city: string;
  city_ascii: string;
  lat: number;
  lng: number;
  pop: number;
  country: string;
  province: string;
  timezone: string;
}

const require = createRequire(import.meta.url);
const cityTimezones = require('city-timezones') as { lookupViaCity(name: string): CityRow[] };

export type CityLookup =
  | { status: 'found'; city: string; country: string; lat: number; lon: number; timeZone: string }
  | { status: 'ambiguous'; options: string[] }
  | { status: 'unknown' };

/**
 * Finds a city by name. With several of that name, the one in the home's current time zone wins
 * (a London household saying "Manchester"), else the far more populous one ("Portland" is
 * Oregon's); comparable ones are ambiguous ("Springfield").
 */
export function lookupCity(name: string, currentTimeZone?: string): CityLookup {
  const rows = cityTimezones
    .lookupViaCity(name.trim())
    .slice()
    .sort((a, b) => b.pop - a.pop);
  if (rows.length === 0) return { status: 'unknown' };
  const local = rows.filter((r) => r.timezone === currentTimeZone);
  const [top, second] = local.length === 1 ? [local[0], undefined] : rows;
  if (second && top.pop < second.pop * 10) {
    return { status: 'ambiguous', options: rows.slice(0, 5).map((r) => `${r.city}, ${r.province && r.province !== r.city ? r.province : r.country}`) };
  }
  return {
    status: 'found',
    city: top.city,
    country: top.country,
    lat: Math.round(top.lat * 1e4) / 1e4,
    lon: Math.round(top.lng * 1e4) / 1e4,
    timeZone: top.timezone,
  };
}
