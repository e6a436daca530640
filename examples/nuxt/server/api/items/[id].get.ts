// Card title comes from the route pattern (`/api/items/:id`), so every id groups into one card.
export default defineEventHandler((event) => {
  const id = getRouterParam(event, 'id');
  if (id === 'gone') throw createError({ statusCode: 404, statusMessage: 'No such item' });
  throw new Error(`Item ${id} failed to load`);
});
