// The smoke set (smoke.ts) in WebKit: engines/driver.ts says how it is driven.

import { smokeSuite } from "./smoke";

smokeSuite("webkit");
