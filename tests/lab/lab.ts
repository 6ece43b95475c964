/**
 * One lab: the scripted model, the corpus web and the product, started together on random ports and
 * stopped together. The product reads the corpus pages because FETCH_ALLOW_HOSTS names the page
 * server, exactly as an operator would let it read an intranet site.
 */
import { startLabProduct, type LabProduct } from './drive.ts';
import { startScriptedModel, type ScriptedModel, type ScriptedModelOptions } from './model.ts';
import { startLabWeb, type LabWeb } from './web.ts';

export interface Lab {
  model: ScriptedModel;
  web: LabWeb;
  product: LabProduct;
  /** The seed the model's mistakes start from; each task adds its own index. */
  seed: number;
  /** The corpus path of a page address, or null for an address outside the corpus. */
  pathOf(url: string): string | null;
  stop(): Promise<void>;
}

export const LAB_ADMIN = { username: 'labadmin', password: 'lab admin password' } as const;

/** `embeddings`: the product retrieves chunks with the scripted model's embeddings too (EMBEDDING_BASE_URL). */
export async function startLab(options: ScriptedModelOptions & { env?: Record<string, string>; embeddings?: boolean } = {}): Promise<Lab> {
  const model = await startScriptedModel(options);
  const web = await startLabWeb();
  let product: LabProduct;
  try {
    product = await startLabProduct({
      LLM_BASE_URL: model.url,
      LLM_MODEL: 'lab-scripted',
      LLM_API_KEY: 'lab-key',
      SEARCH_URL: web.searchUrl,
      FETCH_ALLOW_HOSTS: web.pagesHost,
      ADMIN_USERNAME: LAB_ADMIN.username,
      ADMIN_PASSWORD: LAB_ADMIN.password,
      ...(options.embeddings && { EMBEDDING_BASE_URL: model.url, EMBEDDING_MODEL: 'lab-embeddings' }),
      ...options.env,
    });
  } catch (error) {
    await Promise.all([model.close(), web.close()]);
    throw error;
  }
  return {
    model,
    web,
    product,
    seed: options.seed ?? 27,
    pathOf: (url) => (url.startsWith(web.pagesUrl) ? url.slice(web.pagesUrl.length) : null),
    async stop() {
      await product.stop();
      await Promise.all([model.close(), web.close()]);
    },
  };
}
