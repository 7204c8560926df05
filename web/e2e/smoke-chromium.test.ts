// The smoke set (smoke.ts) in Chromium: engines/driver.ts says how it is driven.

import { smokeSuite } from "./smoke";

smokeSuite("chromium");
