// Start Pyodide from the files served beside this module and import the engine, failing loudly.
// Used by worker.js (in the browser) and by tests/web/engine.test.mjs (in Node).
// `base` is this folder, ending in "/": a URL in the browser, a file path in Node.
// Each step is marked on the performance timeline ("fly-boot-*": benchmarks/first_play.mjs reads them).
export async function boot(loadPyodide, base, fetchText) {
  performance.mark("fly-boot-start");
  const indexURL = base + "pyodide/";
  const pyodide = await loadPyodide({
    indexURL,
    lockFileURL: indexURL + "pyodide-lock.json",
    packages: ["fly-rules"],
  });
  performance.mark("fly-boot-pyodide");
  // A package whose sha256 does not match the lock file is skipped without an error: check now.
  try {
    pyodide.runPython("import fly_rules, tomli_w");
  } catch (error) {
    throw new Error("the fly_rules wheel did not load (is pyodide-lock.json stale?): " + error.message);
  }
  performance.mark("fly-boot-imported");
  pyodide.FS.writeFile("/home/pyodide/fly_live.py", await fetchText(base + "fly_live.py"));
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
  const live = pyodide.pyimport("fly_live");
  performance.mark("fly-boot-bridge");
  return {
    pyodide,
    version: pyodide.version,
    call(name, args) {
      return JSON.parse(live.call(name, JSON.stringify(args)));
    },
  };
}
