// The Nuxt matrix app's own code (pack/test/matrix/nuxt.test.ts): failing server routes, a page
// error, and a page with one failing button per kind, with the titles their cards carry.

/** The card titles of the app's failures. */
export const TITLES = {
  serverError: 'Error: Order <n> could not be loaded (GET /api/orders/:id)',
  pageError: 'Error: Order <n> failed to render (GET /orders/:id)',
  rejection: 'Error: Inventory sync failed (unhandled rejection)',
  browserError: 'TypeError: Cart <n> is empty (browser)',
  browserRejection: 'Error: Sync <n> failed (unhandled rejection in the browser)',
  boundary: 'RangeError: Widget size <n> out of range (Vue component)',
};

/** The app's own code: failing server routes, and a page with one failing button per kind. */
export const APP_FILES: Record<string, string> = {
  'server/api/orders/[id].get.ts': `export default defineEventHandler((event) => {
  const id = getRouterParam(event, 'id');
  if (id === 'missing') throw createError({ statusCode: 404, statusMessage: 'Order not found' });
  throw new Error(\`Order \${id} could not be loaded\`);
});
`,
  'server/api/sync.get.ts': `async function syncInventory() {
  throw new Error('Inventory sync failed');
}

export default defineEventHandler(() => {
  syncInventory(); // not awaited: its rejection is unhandled
  return { started: true };
});
`,
  'app/components/Widget.vue': `<script setup lang="ts">
const props = defineProps<{ size: number }>();
if (props.size > 3) throw new RangeError(\`Widget size \${props.size} out of range\`);
</script>

<template>
  <p>Widget of size {{ size }}</p>
</template>
`,
  'app/pages/index.vue': `<template>
  <p>Orders</p>
</template>
`,
  'app/pages/orders/[id].vue': `<script setup lang="ts">
const route = useRoute();
function renderOrder(id: string): never {
  throw new Error(\`Order \${id} failed to render\`);
}
if (import.meta.server) renderOrder(String(route.params.id));
</script>

<template>
  <p>Order {{ route.params.id }}</p>
</template>
`,
  'app/app.vue': `<script setup lang="ts">
const size = ref(1);
function checkOut() {
  setTimeout(() => {
    throw new TypeError(\`Cart \${Date.now()} is empty\`);
  });
}
async function syncNow() {
  throw new Error(\`Sync \${Date.now()} failed\`);
}
function startSync() {
  void syncNow(); // not awaited, so not Vue's: an unhandled rejection
}
</script>

<template>
  <main>
    <button id="browser-error" type="button" @click="checkOut">Check out</button>
    <button id="browser-rejection" type="button" @click="startSync">Sync</button>
    <button id="error-boundary" type="button" @click="size += 10">Grow</button>
    <Widget v-if="size > 0" :key="size" :size="size" />
    <NuxtPage />
  </main>
</template>
`,
};
