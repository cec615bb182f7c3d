//! GraphQL gateway: async-graphql on axum + tokio.
