import type { SchemaRecord } from '../../graph/entity-index.js';

/**
 * The fixed seed shelves every tenant starts with (VoiceMem "schemas"). Descriptions are what
 * entity descriptions and queries are compared with by embedding similarity, so they list the
 * typical things found on each shelf.
 */
export const SEED_SCHEMAS: readonly Omit<SchemaRecord, 'createdAt'>[] = [
  { id: 'sch_daily_life', name: 'daily life', origin: 'seed',
    description: 'daily life, routine, home, chores, errands, weather, shopping, morning, evening, weekend' },
  { id: 'sch_work', name: 'work', origin: 'seed',
    description: 'work, job, career, office, boss, colleagues, meeting, project, deadline, interview, company, school, study' },
  { id: 'sch_health', name: 'health', origin: 'seed',
    description: 'health, doctor, hospital, illness, medicine, exercise, sleep, diet, therapy, mental health, fitness' },
  { id: 'sch_relationships', name: 'relationships', origin: 'seed',
    description: 'relationships, friends, partner, dating, love, support, community, feelings towards people' },
  { id: 'sch_travel', name: 'travel', origin: 'seed',
    description: 'travel, trip, vacation, flight, train, hotel, city, country, beach, road trip, visit abroad' },
  { id: 'sch_food', name: 'food', origin: 'seed',
    description: 'food, cooking, recipe, restaurant, dinner, lunch, breakfast, coffee, baking, meal, drink' },
  { id: 'sch_hobbies', name: 'hobbies', origin: 'seed',
    description: 'hobbies, music, painting, art, books, reading, games, sports, hiking, camping, pets, photography, movies' },
  { id: 'sch_family', name: 'family', origin: 'seed',
    description: 'family, parents, mother, father, children, kids, siblings, sister, brother, grandparents, wedding' },
  { id: 'sch_finance', name: 'finance', origin: 'seed',
    description: 'finance, money, budget, salary, rent, savings, bank, bills, buying, selling, investment, price' },
  { id: 'sch_plans', name: 'plans', origin: 'seed',
    description: 'plans, goals, promises, appointments, next week, tomorrow, future, schedule, reminders, intentions' },
];

/** The schema used when nothing is similar enough. */
export const FALLBACK_SCHEMA_ID = 'sch_daily_life';
