// GraphiQL with its bundles served by `league serve` itself (no CDN). The app's signed-in
// token, if any, is offered as the default Authorization header.
/* global React, ReactDOM, GraphiQL */
(function () {
  const ws = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/graphql/ws";
  const token = sessionStorage.getItem("league.token");
  const fetcher = GraphiQL.createFetcher({ url: "/graphql", subscriptionUrl: ws });
  const props = { fetcher, defaultEditorToolsVisibility: true };
  if (token) props.defaultHeaders = JSON.stringify({ Authorization: "Bearer " + token }, null, 2);
  ReactDOM.createRoot(document.getElementById("graphiql")).render(React.createElement(GraphiQL, props));
})();
