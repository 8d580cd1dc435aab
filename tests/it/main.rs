//! Every integration test in one crate: one binary to build and link against HiGHS
//! instead of one per file (the set-up time of a fresh clone, issue 36).

mod common;

mod cli_bad_input;
mod cli_binpacking;
mod cli_ctrl_c;
mod cli_evolving;
mod cli_market;
mod cli_pcec;
mod cli_periodic;
mod cli_pipes;
mod cli_rebalance;
mod cli_socbp;
mod cli_vcsched;
mod cluster_scripts;
mod colgen_root;
mod doc_commands;
mod expcone_oracles;
mod experiment;
mod export_models;
mod limits;
mod market_suspend;
mod paper_readings;
mod periodic_bp;
mod periodic_cg;
mod periodic_google;
mod periodic_pricing;
mod problem_toy;
mod proofs;
mod selfcheck;
mod solver_highs;
mod sweep_reliability;
mod vcsched_adapt;
mod vcsched_avg_phase;
mod vcsched_exact;
mod vcsched_oracle;
mod vcsched_packing;
mod vcsched_paper;
mod vcsched_parallel;
mod vcsched_properties;
mod vcsched_relaxation;
mod vcsched_verify;
