// GraphiQL with its bundles served by `league serve` itself (no CDN). The app's signed-in
// token, if any, is offered as the default Authorization header. GraphiQL's editors get
// what assistive technology needs and GraphiQL leaves out: a name for each editor's text
// area, and keyboard access to each scrolling editor (docs/api.md#web-app).
/* global React, ReactDOM, GraphiQL */
(function () {
  const ws = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/graphql/ws";
  const token = sessionStorage.getItem("league.token");
  const fetcher = GraphiQL.createFetcher({ url: "/graphql", subscriptionUrl: ws });
  const props = { fetcher, defaultEditorToolsVisibility: true };
  if (token) props.defaultHeaders = JSON.stringify({ Authorization: "Bearer " + token }, null, 2);
  const root = document.getElementById("graphiql");

  // Each editor's name, by where it sits (GraphiQL's own class names).
  const EDITORS = [
    [".graphiql-query-editor", "Query editor"],
    [".graphiql-editor-tool .graphiql-editor:nth-child(1)", "Variables editor"],
    [".graphiql-editor-tool .graphiql-editor:nth-child(2)", "Headers editor"],
    [".graphiql-response", "Response"],
  ];
  const nameEditors = function () {
    for (const [where, name] of EDITORS) {
      for (const editor of root.querySelectorAll(where)) {
        for (const area of editor.querySelectorAll(".CodeMirror textarea:not([aria-label])")) area.setAttribute("aria-label", name);
        // CodeMirror makes its scrolling box focusable by script only (tabindex -1).
        for (const scroll of editor.querySelectorAll(".CodeMirror-scroll:not([role])")) {
          scroll.setAttribute("tabindex", "0");
          scroll.setAttribute("role", "region");
          scroll.setAttribute("aria-label", name + " (scrolls)");
        }
      }
    }
  };
  new MutationObserver(nameEditors).observe(root, { childList: true, subtree: true });
  ReactDOM.createRoot(root).render(React.createElement(GraphiQL, props));
})();
