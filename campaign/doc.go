// Package campaign runs the one loop every domain shares: workers take consecutive runs of case
// indices, generate each case from hash(seed, i), execute it on their own targets (skipping the
// setup when consecutive cases share it), ask every oracle, and hand findings to the Store, which
// writes each one before it is confirmed, reduced and replayed. It owns budgets, progress, stats,
// campaign.json and report.html. It imports fuzz and no domain, oracle or engine.
package campaign
