// The ribbon button only opens the task pane (ShowTaskpane in manifest.xml); this function file must
// still exist and initialise Office so the ribbon works in every host.
Office.onReady(() => undefined);
