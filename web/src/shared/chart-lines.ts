// chart.js's Chart with the line chart's parts registered (the sweep's
// charts), loaded by chart-lib.ts on first use. Only the parts named here
// reach the build: a dynamic import of "chart.js" itself would bring all of it.

import { Chart, Legend, LinearScale, LineController, LineElement, LogarithmicScale, PointElement, Tooltip } from "chart.js";

Chart.register(LineController, LineElement, PointElement, LinearScale, LogarithmicScale, Legend, Tooltip);

export { Chart };
