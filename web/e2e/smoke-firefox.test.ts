// The smoke set (smoke.ts) in Firefox: engines/driver.ts says how it is driven.

import { smokeSuite } from "./smoke";

smokeSuite("firefox");
