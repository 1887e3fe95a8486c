/**
 * For the root type-check (`tsc -p tsconfig.json`), which cannot read single-file components: there a `.vue` import
 * is a component of unknown props. `vue-tsc -p test/unit/renderer/tsconfig.json` resolves the real files and checks
 * the tests against their actual props.
 */
declare module '*.vue' {
  import type { DefineComponent } from 'vue';

  const component: DefineComponent;
  export default component;
}
