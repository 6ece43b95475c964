/**
 * The admin console on a 390 px phone (issue 33 #21): every tab fits the screen's width, so nothing
 * needs scrolling sideways, in zh and en. Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import { signInAdmin, signUp, startTestApp } from '../support/app.ts';
import { browserSuite, screenshot } from '../support/browser.ts';

const suite = browserSuite(() => startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password', SMTP_URL: '' }));

for (const language of ['zh', 'en'] as const) {
  test(`every tab of /manage fits a 390 px screen (${language})`, async (t) => {
    await signUp(suite.app.url, `phoneuser${language}`);
    const admin = await signInAdmin(suite.app.url);
    const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
    t.teardown(() => context.close());
    await context.addInitScript(
      ({ token, lang }) => {
        localStorage.setItem('auth_token', token);
        localStorage.setItem('app_language', lang);
      },
      { token: admin.token!, lang: language },
    );
    const page = await context.newPage();
    await page.goto(`${suite.app.url}/manage`, { waitUntil: 'networkidle' });
    await page.getByRole('tab').first().waitFor();
    const tabs = await page.getByRole('tab').all();
    t.true(tabs.length > 3);
    for (const [index, tab] of tabs.entries()) {
      await tab.click();
      await page.waitForLoadState('networkidle');
      const wide = await page.evaluate(() => {
        const found: string[] = [];
        if (document.documentElement.scrollWidth > window.innerWidth) found.push(`page ${document.documentElement.scrollWidth}`);
        for (const element of document.querySelectorAll<HTMLElement>('main *, [role="tabpanel"] *')) {
          const style = getComputedStyle(element);
          if (element.scrollWidth > element.clientWidth + 1 && ['auto', 'scroll'].includes(style.overflowX) && element.clientWidth > 0) found.push(`${element.tagName.toLowerCase()}.${element.className} ${element.scrollWidth}>${element.clientWidth}`);
        }
        return found;
      });
      await screenshot(page, `manage-phone-${language}-${index}`);
      t.deepEqual(wide, [], `tab ${index} (${await tab.textContent()}) scrolls sideways`);
    }
  });
}
