//! The catalogue of scoring systems: one entry per system says everything the platform knows
//! about it — its stored CLI name, GraphQL name, display name and the aliases users know, the
//! result shape and the function that scores it, how many players a game has, what a result must
//! carry, how it scores a concession, its one-line rule and its source. [`ScoringSystem`], its
//! facts ([`SystemInfo`]) and the scoring dispatch are generated from that one list, so adding
//! a system is its module, one entry in [`scoring_catalogue!`], and its section of
//! `docs/scoring.md`.

use serde::Serialize;

use crate::ResultKind;
use crate::scorer::Scoring;

/// The catalogue, one entry per system:
/// `(Variant, "cli-name", "GRAPHQL_NAME", ResultKind, "one-line description", { facts })`.
///
/// `scoring_catalogue!(callback)` invokes `callback! { … }` with every entry, facts included
/// (the facts name this crate's private scoring functions, so only this crate expands them);
/// [`scoring_systems!`] hands other crates the first five fields. The CLI names are the serde
/// names stored in events and never change.
#[doc(hidden)]
#[macro_export]
macro_rules! scoring_catalogue {
    ($callback:ident) => {
        $crate::scoring_catalogue! { @list @all $callback }
    };
    (@five $callback:ident) => {
        $crate::scoring_catalogue! { @list @five $callback }
    };
    (@five $callback:ident [$(
        ($variant:ident, $name:literal, $graphql:literal, $kind:ident, $doc:literal, { $($facts:tt)* })
    ),* $(,)?]) => {
        $callback! { $(($variant, $name, $graphql, $kind, $doc),)* }
    };
    (@all $callback:ident [$($entry:tt),* $(,)?]) => {
        $callback! { $($entry,)* }
    };
    (@list @$mode:ident $callback:ident) => {
        $crate::scoring_catalogue! { @$mode $callback [
            (Placement, "placement", "PLACEMENT", Placement,
                "League points from finishing position in all-vs-all games (docs/scoring.md#placement).", {
                display: "Placement", aliases: [],
                score: |_, entries, explain| Ok($crate::placement::score(entries, explain)),
                players: (2, Some(8)), needs: [Points], concession: NoConcession,
                source: "YouPlayIt, \"League scoring system\", basic scoring for all vs. all games",
                rule: "League points by finishing place for 2 to 8 players; players level share their places' points.",
            }),
            (Baf, "baf", "BAF", Diplomacy,
                "Diplomacy, Baf system (docs/scoring.md#baf).", {
                display: "Baf", aliases: [],
                score: $crate::baf::score,
                players: (7, Some(7)), needs: [Centres], concession: AsDraw,
                source: "Diplomania wiki, \"Baf scoring system\" (Anjou Feu tournaments)",
                rule: "A solo 100 and the rest 0; otherwise a table read by a power's centres and the best other power's.",
            }),
            (Detour98f, "detour98f", "DETOUR_98F", Diplomacy,
                "Diplomacy, DAANZ Detour 98f (docs/scoring.md#detour-98f).", {
                display: "Detour 98f", aliases: ["DETOUR 98f"],
                score: $crate::detour::score,
                players: (7, Some(7)), needs: [Centres], concession: AsDraw,
                source: "DAANZ, \"DETOUR 98f Scoring System\" (parts 1 and 2)",
                rule: "Raw points for centres, survival, lead and place, scaled to 100 in hundredths; an 18-centre win 110.",
            }),
            (Squares, "squares", "SQUARES", Diplomacy,
                "Diplomacy, DAANZ Squares, also dipvis's Sum of Squares (docs/scoring.md#squares).", {
                display: "Squares", aliases: ["Sum of Squares"],
                score: $crate::squares::score,
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "DAANZ, \"Squares Scoring System\" (John Cain, 1999); dipvis, class GScoringSumOfSquares",
                rule: "Each power's centres squared, scaled to total 100; a solo 100 and the rest 0.",
            }),
            (BlueMax, "bluemax", "BLUE_MAX", Teams,
                "Team game: Blue Max (docs/scoring.md#blue-max).", {
                display: "Blue Max", aliases: [],
                score: |_, teams, explain| Ok($crate::bluemax::score(teams, $crate::bluemax::KillPoints::Counted, explain)),
                players: (2, None), needs: [TwoSides, UnitsLost, Kills], concession: NoConcession,
                source: "YouPlayIt, \"Special scoring system for Blue Max leagues\"",
                rule: "The winning side 4, 3 or 1 by victory type; +1 best team player, +1 per enemy unit destroyed, -1 per own unit lost.",
            }),
            (WoodenShips, "woodenships", "WOODEN_SHIPS", Teams,
                "Team game: Wooden Ships & Iron Men (docs/scoring.md#wooden-ships).", {
                display: "Wooden Ships & Iron Men", aliases: ["Wooden Ships"],
                score: |_, teams, explain| Ok($crate::woodenships::score(teams, explain)),
                players: (2, None), needs: [Sides, ShipsLeft], concession: NoConcession,
                source: "YouPlayIt forum, rules for newer Wooden Ships & Iron Men leagues",
                rule: "Overwhelming victory 4, victory 3, tie or agreed draw 1, loss 0; a player who surrendered 0.",
            }),
            (WoodenShipsLegacy, "woodenships-legacy", "WOODEN_SHIPS_LEGACY", Teams,
                "Team game: Wooden Ships & Iron Men, legacy rules (docs/scoring.md#wooden-ships-legacy).", {
                display: "Wooden Ships & Iron Men (legacy)", aliases: ["Wooden Ships legacy"],
                score: |_, teams, explain| Ok($crate::bluemax::score(teams, $crate::bluemax::KillPoints::NotCounted, explain)),
                players: (2, None), needs: [TwoSides, UnitsLost], concession: NoConcession,
                source: "YouPlayIt, rules for older Wooden Ships leagues (the Blue Max scheme)",
                rule: "The Blue Max scheme without points for enemy units destroyed.",
            }),
            (SoloOrBust, "solo-or-bust", "SOLO_OR_BUST", Diplomacy,
                "Diplomacy: only a solo scores (docs/scoring.md#solo-or-bust).", {
                display: "Solo or bust", aliases: [],
                score: $crate::systems::solo_or_bust::score,
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "dipvis, class GScoringSolos (\"Solo or bust\")",
                rule: "A solo 100; every other result 0.",
            }),
            (DrawSize, "draw-size", "DRAW_SIZE", Diplomacy,
                "Diplomacy: the draw shares 100 points equally (docs/scoring.md#draw-size).", {
                display: "Draw size", aliases: [],
                score: $crate::systems::draw_size::score,
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "dipvis, class GScoringDrawSize (\"Draw size\")",
                rule: "A solo 100; otherwise the powers in the draw share 100 equally.",
            }),
            (CDiplo100, "cdiplo100", "C_DIPLO_100", Diplomacy,
                "Diplomacy, C-Diplo 100 (docs/scoring.md#c-diplo).", {
                display: "C-Diplo 100", aliases: ["CDiplo 100"],
                score: |system, entries, explain| $crate::systems::cdiplo::score(system, &$crate::systems::cdiplo::C_DIPLO_100, entries, explain),
                players: (7, Some(7)), needs: [Centres], concession: AsDraw,
                source: "dipvis, class GScoringCDiplo (\"CDiplo 100\")",
                rule: "1 for playing, 1 per centre, 38/14/7 for the three best counts; a solo 100.",
            }),
            (CDiplo80, "cdiplo80", "C_DIPLO_80", Diplomacy,
                "Diplomacy, C-Diplo 80 (docs/scoring.md#c-diplo).", {
                display: "C-Diplo 80", aliases: ["CDiplo 80"],
                score: |system, entries, explain| $crate::systems::cdiplo::score(system, &$crate::systems::cdiplo::C_DIPLO_80, entries, explain),
                players: (7, Some(7)), needs: [Centres], concession: AsDraw,
                source: "dipvis, class GScoringCDiplo (\"CDiplo 80\")",
                rule: "1 per centre, 25/14/7 for the three best counts; a solo 80.",
            }),
            (Bangkok, "bangkok", "BANGKOK", Diplomacy,
                "Diplomacy, Bangkok (docs/scoring.md#bangkok-and-olympic).", {
                display: "Bangkok", aliases: [],
                score: |system, entries, explain| $crate::systems::bangkok::score(system, &$crate::systems::bangkok::BANGKOK, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear], concession: AsSolo,
                source: "dipvis, class GScoringBangkok (\"Bangkok\")",
                rule: "1 per centre, 3 for surviving or 0.3 per year survived, a 12-point domination bonus by shares; a solo 41, losers 0.5 per centre.",
            }),
            (Olympic, "olympic", "OLYMPIC", Diplomacy,
                "Diplomacy, Olympic: Bangkok with other weights (docs/scoring.md#bangkok-and-olympic).", {
                display: "Olympic", aliases: [],
                score: |system, entries, explain| $crate::systems::bangkok::score(system, &$crate::systems::bangkok::OLYMPIC, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear], concession: AsSolo,
                source: "dipvis, class GScoringBangkok (\"Olympic\")",
                rule: "Bangkok with domination shares 4/1.5/0.5; a solo 46, losers 0.",
            }),
            (CarnageDeadEqual, "carnage-dead-equal", "CARNAGE_DEAD_EQUAL", Diplomacy,
                "Diplomacy, Carnage with dead equal (docs/scoring.md#carnage).", {
                display: "Carnage with dead equal", aliases: [],
                score: |system, entries, explain| $crate::systems::carnage::score(system, &$crate::systems::carnage::DEAD_EQUAL, entries, explain),
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "dipvis, class GScoringCarnage (\"Carnage with dead equal\")",
                rule: "1 per centre plus 7000..1000 by position, the eliminated sharing the bottom; a solo 28034.",
            }),
            (CarnageEliminationOrder, "carnage-elimination-order", "CARNAGE_ELIMINATION_ORDER", Diplomacy,
                "Diplomacy, Carnage with elimination order (docs/scoring.md#carnage).", {
                display: "Carnage with elimination order", aliases: [],
                score: |system, entries, explain| $crate::systems::carnage::score(system, &$crate::systems::carnage::ELIMINATION_ORDER, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear], concession: AsSolo,
                source: "dipvis, class GScoringCarnage (\"Carnage with elimination order\")",
                rule: "1 per centre plus 7000..1000 by position, the eliminated ranked by when they fell; a solo 28034.",
            }),
            (CarnageCentreCount, "carnage-centre-count", "CARNAGE_CENTRE_COUNT", Diplomacy,
                "Diplomacy, centre-count Carnage (docs/scoring.md#carnage).", {
                display: "Centre-count Carnage", aliases: ["Center-count Carnage"],
                score: |system, entries, explain| $crate::systems::carnage::score(system, &$crate::systems::carnage::CENTRE_COUNT, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear], concession: AsSolo,
                source: "dipvis, class GScoringCarnage (\"Center-count Carnage\")",
                rule: "500 per centre plus 7007..1001 by position in elimination order; a solo 39028, losers 1000.",
            }),
            (Carnage2023, "carnage-2023", "CARNAGE_2023", Diplomacy,
                "Diplomacy, Carnage 2023: elimination order plus a lead bonus (docs/scoring.md#carnage).", {
                display: "Carnage 2023", aliases: [],
                score: |system, entries, explain| $crate::systems::carnage::score(system, &$crate::systems::carnage::CARNAGE_2023, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear], concession: AsSolo,
                source: "dipvis, class GScoringCarnage (\"Carnage 2023\")",
                rule: "Carnage with elimination order plus 300 per centre of a lone leader's lead; a solo 28034.",
            }),
            (Tribute, "tribute", "TRIBUTE", Diplomacy,
                "Diplomacy, Tribute (docs/scoring.md#tribute).", {
                display: "Tribute", aliases: [],
                score: $crate::systems::tribute::score,
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "dipvis, class GScoringTribute (\"Tribute\")",
                rule: "1 per centre, survivors share 66, and pay the leader a tribute of its centres over 6; a solo 100.",
            }),
            (Base3, "base3", "BASE_3", Diplomacy,
                "Diplomacy, Base 3 (docs/scoring.md#base-3).", {
                display: "Base 3", aliases: [],
                score: $crate::systems::base3::score,
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "dipvis, class GScoringBase3 (\"Base 3\")",
                rule: "Survivors 1 per centre plus 3, the top a 9-point bonus divided by 3 per further topper; a solo 46.",
            }),
            (CDiploNamur, "cdiplo-namur", "C_DIPLO_NAMUR", Diplomacy,
                "Diplomacy, C-Diplo Namur (docs/scoring.md#c-diplo-namur).", {
                display: "C-Diplo Namur", aliases: [],
                score: $crate::systems::cdiplo_namur::score,
                players: (7, Some(7)), needs: [Centres], concession: AsDraw,
                source: "dipvis, class GScoringCDiploNamur (\"C-Diplo Namur\")",
                rule: "1 for playing, centre points weighted to small powers, 38/14/7 for the three best; a solo 85.",
            }),
            (OpenTribute, "opentribute", "OPEN_TRIBUTE", Diplomacy,
                "Diplomacy, OpenTribute (docs/scoring.md#opentribute).", {
                display: "OpenTribute", aliases: [],
                score: $crate::systems::open_tribute::score,
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "dipvis, class GScoringOpenTribute (\"OpenTribute\")",
                rule: "Survivors 34 plus 3 per centre, paying the leader the centres it holds more; a solo 340.",
            }),
            (Mischief, "mischief", "MISCHIEF", Diplomacy,
                "Diplomacy, Mischief (docs/scoring.md#mischief).", {
                display: "Mischief", aliases: [],
                score: $crate::systems::mischief::score,
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "dipvis, class GScoringMischief (\"Mischief\")",
                rule: "1 per centre plus 5 for a lone top or 1 each for a top shared by two; a solo 34.",
            }),
            (Omg, "omg", "OMG", Diplomacy,
                "Diplomacy, Open Mind the Gap (docs/scoring.md#omg).", {
                display: "Open Mind the Gap", aliases: ["OMG"],
                score: $crate::systems::omg::score,
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "dipvis, class GScoringOMG (\"Open Mind the Gap\")",
                rule: "1.5 per centre, 9 for surviving, 4.5/3/1.5 for the three best, a capped tribute to a lone top; a solo 100.",
            }),
            (Vulcan, "vulcan", "VULCAN", Diplomacy,
                "Diplomacy, Vulcan (docs/scoring.md#vulcan).", {
                display: "Vulcan", aliases: [],
                score: $crate::systems::vulcan::score,
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "dipvis, class GScoringVulcan (\"Vulcan\")",
                rule: "Survivors 1 per centre, 5, 1 per centre ahead of each lower power, the top sharing 10; a solo 130, survivors 5.",
            }),
            (YourDrawSizeShort, "your-draw-size-short", "YOUR_DRAW_SIZE_SHORT", Diplomacy,
                "Diplomacy, Your Draw Size for short games (docs/scoring.md#your-draw-size).", {
                display: "Your Draw Size (short games)", aliases: [],
                score: |system, entries, explain| $crate::systems::your_draw_size::score(system, $crate::systems::your_draw_size::SHORT_GAMES_SOLO, entries, explain),
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "dipvis, class GScoringYourDrawSize (\"Your Draw Size (short games)\")",
                rule: "A fixed score by the band of a power's centres (105 down to 21); a solo 300.",
            }),
            (YourDrawSizeUnlimited, "your-draw-size-unlimited", "YOUR_DRAW_SIZE_UNLIMITED", Diplomacy,
                "Diplomacy, Your Draw Size for unlimited games (docs/scoring.md#your-draw-size).", {
                display: "Your Draw Size (unlimited games)", aliases: [],
                score: |system, entries, explain| $crate::systems::your_draw_size::score(system, $crate::systems::your_draw_size::UNLIMITED_GAMES_SOLO, entries, explain),
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "dipvis, class GScoringYourDrawSize (\"Your Draw Size (unlimited games)\")",
                rule: "A fixed score by the band of a power's centres (105 down to 21); a solo 320.",
            }),
            (DuctTapeV2, "duct-tape-v2", "DUCT_TAPE_V2", Diplomacy,
                "Diplomacy, Duct Tape V2 (docs/scoring.md#duct-tape-v2).", {
                display: "Duct Tape V2", aliases: [],
                score: |system, entries, explain| $crate::systems::duct_tape::score(system, $crate::systems::duct_tape::Fallen::Equal, entries, explain),
                players: (7, Some(7)), needs: [Centres], concession: AsSolo,
                source: "dipvis, class GScoringDuctTapeV2 (\"Duct Tape V2\")",
                rule: "1 per centre plus 40/24/15/9/6/3/3 by rank, the eliminated sharing the bottom; a solo 75.",
            }),
            (DuctTapeV2EliminationOrder, "duct-tape-v2-elimination-order", "DUCT_TAPE_V2_ELIMINATION_ORDER", Diplomacy,
                "Diplomacy, Duct Tape V2 with elimination order (docs/scoring.md#duct-tape-v2).", {
                display: "Duct Tape V2 with elimination order", aliases: [],
                score: |system, entries, explain| $crate::systems::duct_tape::score(system, $crate::systems::duct_tape::Fallen::ByEliminationYear, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear], concession: AsSolo,
                source: "dipvis, class GScoringDuctTapeV2 (\"Duct Tape V2 with elimination order\")",
                rule: "1 per centre plus 40/24/15/9/6/3/3 by rank, the eliminated ranked by when they fell; a solo 75.",
            }),
            (SouthernSun, "southern-sun", "SOUTHERN_SUN", Diplomacy,
                "Diplomacy, Southern Sun (docs/scoring.md#southern-sun).", {
                display: "Southern Sun", aliases: [],
                score: $crate::systems::southern_sun::score,
                players: (7, Some(7)), needs: [Centres, EliminatedYear], concession: AsSolo,
                source: "dipvis, class GScoringSouthernSun (\"Southern Sun\")",
                rule: "Survivors 30 plus 10 per centre plus 130/80/50/30/20/10/10 by rank, the fallen 3 per year; a solo 500.",
            }),
            (SydneyLeague, "sydney-league", "SYDNEY_LEAGUE", Diplomacy,
                "Diplomacy, Sydney League (docs/scoring.md#sydney-league).", {
                display: "Sydney League", aliases: [],
                score: $crate::systems::sydney_league::score,
                players: (7, Some(7)), needs: [Centres, EliminatedYear], concession: AsSolo,
                source: "dipvis, class GScoringSydneyLeague (\"Sydney League\")",
                rule: "25 per centre plus 700..100 by position; with a solo the soloist's score is raised by half and the others' halved.",
            }),
            (WorldClassic, "world-classic", "WORLD_CLASSIC", Diplomacy,
                "Diplomacy, World Classic (docs/scoring.md#world-classic-and-summer-classic).", {
                display: "World Classic", aliases: [],
                score: |system, entries, explain| $crate::systems::world_classic::score(system, $crate::systems::world_classic::TopPool::AllToppers, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear, SoloYear], concession: AsSolo,
                source: "dipvis, class GScoringWorldClassic (\"World Classic\")",
                rule: "Survivors 10 per centre plus 30, the toppers share 48, the fallen 1 per year; a solo 420.",
            }),
            (SummerClassic, "summer-classic", "SUMMER_CLASSIC", Diplomacy,
                "Diplomacy, Summer Classic (docs/scoring.md#world-classic-and-summer-classic).", {
                display: "Summer Classic", aliases: [],
                score: |system, entries, explain| $crate::systems::world_classic::score(system, $crate::systems::world_classic::TopPool::AtMostTwo, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear, SoloYear], concession: AsSolo,
                source: "dipvis, class GScoringWorldClassic (\"Summer Classic\")",
                rule: "World Classic, but the 48 is paid only to one or two toppers; a solo 420.",
            }),
            (Whipping, "whipping", "WHIPPING", Diplomacy,
                "Diplomacy, Whipping (docs/scoring.md#whipping).", {
                display: "Whipping", aliases: [],
                score: $crate::systems::whipping::score,
                players: (7, Some(7)), needs: [Centres, EliminatedYear, SoloYear], concession: AsDraw,
                source: "dipvis, class GScoringWhipping (\"Whipping\")",
                rule: "Survivors 10 per centre plus a share of 60, a lone top twice its centres, the fallen 1 per year; a solo 468.",
            }),
            (Detour09, "detour09", "DETOUR_09", Diplomacy,
                "Diplomacy, Detour09 (docs/scoring.md#detour09).", {
                display: "Detour09", aliases: [],
                score: $crate::systems::detour09::score,
                players: (7, Some(7)), needs: [Centres, EliminatedYear, SoloYear], concession: AsSolo,
                source: "dipvis, class GScoringDetour09 (\"Detour09\")",
                rule: "Raw points for centres, survival, lead and place scaled to 100, plus 0.25 per year for the fallen; a solo 110.",
            }),
            (BangkokPike, "bangkok-pike", "BANGKOK_PIKE", Diplomacy,
                "Diplomacy, Bangkok Pike (docs/scoring.md#bangkok-pike).", {
                display: "Bangkok Pike", aliases: [],
                score: $crate::systems::bangkok_pike::score,
                players: (7, Some(7)), needs: [Centres, EliminatedYear, SoloYear], concession: AsSolo,
                source: "dipvis, class GScoringBangkokPike (\"Bangkok Pike\")",
                rule: "1 per centre, 3 for surviving or 0.1 per year played, bonuses near the top; a solo 60.",
            }),
            (Haight, "haight", "HAIGHT", Diplomacy,
                "Diplomacy, Haight v1.0 (docs/scoring.md#haight).", {
                display: "Haight v1.0", aliases: ["Haight"],
                score: $crate::systems::haight::score,
                players: (7, Some(7)), needs: [Centres, EliminatedYear, SoloYear], concession: AsSolo,
                source: "dipvis, class GScoringHaight (\"Haight v1.0\")",
                rule: "Survivors 10 per centre, the fallen 1 per year, rank points 66..0, a lone top 5 per centre of lead; a solo 451.",
            }),
            (ManorCon, "manorcon", "MANORCON", Diplomacy,
                "Diplomacy, ManorCon (docs/scoring.md#manorcon).", {
                display: "ManorCon", aliases: [],
                score: |system, entries, explain| $crate::systems::manorcon::score(system, &$crate::systems::manorcon::MANORCON, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear, SoloYear], concession: AsSolo,
                source: "dipvis, class GScoringManorCon (\"ManorCon\")",
                rule: "100 × (S² + 4S + 16) over every power's sum, the fallen counting 16 and scoring 0.1 per year; a solo 75.",
            }),
            (ManorConOriginal, "manorcon-original", "MANORCON_ORIGINAL", Diplomacy,
                "Diplomacy, Original ManorCon (docs/scoring.md#manorcon).", {
                display: "Original ManorCon", aliases: [],
                score: |system, entries, explain| $crate::systems::manorcon::score(system, &$crate::systems::manorcon::ORIGINAL, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear, SoloYear], concession: AsSolo,
                source: "dipvis, class GScoringManorCon (\"Original ManorCon\")",
                rule: "ManorCon with a solo worth 100.",
            }),
            (ManorConV2, "manorcon-v2", "MANORCON_V2", Diplomacy,
                "Diplomacy, ManorCon v2 (docs/scoring.md#manorcon).", {
                display: "ManorCon v2", aliases: [],
                score: |system, entries, explain| $crate::systems::manorcon::score(system, &$crate::systems::manorcon::V2, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear, SoloYear], concession: AsSolo,
                source: "dipvis, class GScoringManorCon (\"ManorCon v2\")",
                rule: "ManorCon where the fallen count nothing in the sum; a solo 100.",
            }),
            (RankedClassic, "ranked-classic", "RANKED_CLASSIC", Diplomacy,
                "Diplomacy, Ranked Classic (docs/scoring.md#ranked-classic).", {
                display: "Ranked Classic", aliases: [],
                score: |system, entries, explain| $crate::systems::ranked_classic::score(system, $crate::systems::ranked_classic::MultiWayTie::LowestPlace, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear, SoloYear], concession: AsSolo,
                source: "dipvis, class GScoringRankedClassic (\"Ranked Classic\")",
                rule: "Survivors 30 plus 10 per centre plus rank points (three or more level: the lowest place), the fallen 1 per year; a solo 550.",
            }),
            (RankedClassicV2, "ranked-classic-v2", "RANKED_CLASSIC_V2", Diplomacy,
                "Diplomacy, Ranked Classic v2 (docs/scoring.md#ranked-classic-v2).", {
                display: "Ranked Classic v2", aliases: [],
                score: |system, entries, explain| $crate::systems::ranked_classic::score(system, $crate::systems::ranked_classic::MultiWayTie::TwoWayAtSecondLowest, entries, explain),
                players: (7, Some(7)), needs: [Centres, EliminatedYear, SoloYear], concession: AsSolo,
                source: "dipvis, class GScoringRankedClassic (\"Ranked Classic v2\")",
                rule: "Ranked Classic, but three or more level score as a two-way tie for the second-lowest place they share.",
            }),
            (Maxonian, "maxonian", "MAXONIAN", Diplomacy,
                "Diplomacy, Maxonian (docs/scoring.md#maxonian-and-7eleven).", {
                display: "Maxonian", aliases: [],
                score: |system, entries, explain| $crate::systems::maxonian::score(system, $crate::systems::maxonian::MAXONIAN_THRESHOLD, entries, explain),
                players: (7, Some(7)), needs: [Centres, EarlierCentres], concession: AsDraw,
                source: "dipvis, class GScoringMaxonian (\"Maxonian\")",
                rule: "7..1 by centres (ties broken by earlier years), plus 1 per centre above 13 (with a solo only the soloist's, as 18).",
            }),
            (SevenEleven, "7eleven", "SEVEN_ELEVEN", Diplomacy,
                "Diplomacy, 7Eleven (docs/scoring.md#maxonian-and-7eleven).", {
                display: "7Eleven", aliases: [],
                score: |system, entries, explain| $crate::systems::maxonian::score(system, $crate::systems::maxonian::SEVEN_ELEVEN_THRESHOLD, entries, explain),
                players: (7, Some(7)), needs: [Centres, EarlierCentres], concession: AsDraw,
                source: "dipvis, class GScoringMaxonian (\"7Eleven\")",
                rule: "7..1 by centres (ties broken by earlier years), plus 1 per centre above 11 (with a solo only the soloist's, as 18).",
            }),
        ] }
    };
}

/// The catalogue for other crates, one tuple per system: `(Variant, "cli-name",
/// "GRAPHQL_NAME", ResultKind, "one-line description")`. It invokes `$callback! { … }` with the
/// list, so every crate that needs a per-system item (the gateway's GraphQL enum) generates it
/// from the one catalogue ([`SystemInfo`] has every other fact).
#[macro_export]
macro_rules! scoring_systems {
    ($callback:ident) => {
        $crate::scoring_catalogue! { @five $callback }
    };
}

/// How many players a game of a system has (`docs/scoring.md`): Diplomacy exactly 7, the
/// placement table 2 to 8, team games at least 2 (one per side) with no upper bound of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayersPerGame {
    pub min: u32,
    /// `None`: no limit from the scoring rules.
    pub max: Option<u32>,
}

impl PlayersPerGame {
    /// True when a game of `players` players can be scored.
    pub fn contains(self, players: u32) -> bool {
        players >= self.min && self.max.is_none_or(|max| players <= max)
    }
}

impl std::fmt::Display for PlayersPerGame {
    /// `exactly 7`, `2 to 8`, `at least 2` (for "needs … players per game").
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.max {
            Some(max) if max == self.min => write!(f, "exactly {max}"),
            Some(max) => write!(f, "{} to {max}", self.min),
            None => write!(f, "at least {}", self.min),
        }
    }
}

/// What a result must carry for a system, besides the players themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ResultField {
    /// `players[i].points`: each player's final game points.
    Points,
    /// `players[i].centres`: each power's final centre count.
    Centres,
    /// `players[i].eliminatedYear`: for every power left without centres.
    EliminatedYear,
    /// `players[i].soloYear`: on the soloist, or on the power conceded to (the game's last year).
    SoloYear,
    /// `players[i].earlierCentres`: for powers level on centres.
    EarlierCentres,
    /// `sides`: at least two sides, each with its players.
    Sides,
    /// `sides`: exactly two sides, each with its players.
    TwoSides,
    /// `sides[i].players[j].units` and `.lost`: units started with and lost.
    UnitsLost,
    /// `sides[i].players[j].kills`: enemy units destroyed.
    Kills,
    /// `sides[i].players[j].shipsLeft`: ships afloat at the end.
    ShipsLeft,
}

impl ResultField {
    /// The field's path in a result and when it is needed, one line.
    pub fn description(self) -> &'static str {
        match self {
            ResultField::Points => "players[i].points: each player's final game points",
            ResultField::Centres => "players[i].centres: each power's final centre count",
            ResultField::EliminatedYear => {
                "players[i].eliminatedYear: the year each power without centres was eliminated"
            }
            ResultField::SoloYear => {
                "players[i].soloYear: the year of a solo, on the soloist or the power conceded to"
            }
            ResultField::EarlierCentres => {
                "players[i].earlierCentres: earlier years' counts of powers level on centres"
            }
            ResultField::Sides => "sides: at least two sides, each with its players",
            ResultField::TwoSides => "sides: exactly two sides, each with its players",
            ResultField::UnitsLost => "sides[i].players[j].units and .lost: units had and lost",
            ResultField::Kills => "sides[i].players[j].kills: enemy units destroyed",
            ResultField::ShipsLeft => "sides[i].players[j].shipsLeft: ships afloat at the end",
        }
    }
}

/// How a system scores a concession, a game every other power conceded to one
/// (`docs/scoring.md#draws-and-concessions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ConcessionScoring {
    /// As that power's solo (dipvis's soloer is "the power that soloed the game or was
    /// conceded to", and these systems' code scores it so).
    AsSolo,
    /// As a drawn game scored from the centres: the system's rule knows only 18-centre wins
    /// (Baf, Detour 98f), or its rule is silent and dipvis's code makes a solo only of 18
    /// centres (C-Diplo 100 and 80, C-Diplo Namur, Maxonian, 7Eleven, Whipping).
    AsDraw,
    /// The result shape has no concession (placement, team games).
    NoConcession,
}

/// The systems that score a concession from the centres now but scored it as the power
/// conceded to's solo under [`ConcessionRule::Solo`](crate::ConcessionRule::Solo), the rule of
/// results recorded before each system followed its own rule: their rules say nothing of
/// concessions and dipvis's code makes a solo only of 18 centres
/// (`docs/scoring.md#draws-and-concessions`).
pub const CONCESSION_SOLO_ONLY_UNDER_EARLIER_RULE: &[crate::ScoringSystem] = &[
    crate::ScoringSystem::CDiplo100,
    crate::ScoringSystem::CDiplo80,
    crate::ScoringSystem::CDiploNamur,
    crate::ScoringSystem::Whipping,
    crate::ScoringSystem::Maxonian,
    crate::ScoringSystem::SevenEleven,
];

/// Everything the platform knows about one scoring system, for every surface (GraphQL,
/// `league systems`, the web app). Serialised with camelCase keys.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SystemInfo {
    /// The system (serialised as its CLI name).
    pub system: crate::ScoringSystem,
    /// The CLI name, stored in events.
    pub name: &'static str,
    /// The GraphQL enum value.
    pub graphql_name: &'static str,
    /// The name people use ("Squares", "Centre-count Carnage").
    pub display_name: &'static str,
    /// Other names users know it by (dipvis's, mostly), accepted by `FromStr`.
    pub aliases: &'static [&'static str],
    pub result_kind: ResultKind,
    pub players_per_game: PlayersPerGame,
    /// What a result must carry.
    pub needs: &'static [ResultField],
    pub concession: ConcessionScoring,
    /// The rule in one line.
    pub rule: &'static str,
    /// Where the rule is published.
    pub source: &'static str,
    /// One line saying what the system is, with its `docs/scoring.md` section.
    pub description: &'static str,
}

/// Expands the catalogue into [`ScoringSystem`](crate::ScoringSystem), its facts and its
/// scoring function.
macro_rules! define_scoring_system {
    ($(($variant:ident, $name:literal, $graphql:literal, $kind:ident, $doc:literal, {
        display: $display:literal, aliases: [$($alias:literal),* $(,)?],
        score: $score:expr,
        players: ($min:literal, $max:expr), needs: [$($need:ident),* $(,)?],
        concession: $concession:ident,
        source: $source:literal,
        rule: $rule:literal $(,)?
    })),* $(,)?) => {
        /// Every scoring system the platform knows. The serde names are the CLI names
        /// ([`ScoringSystem::name`]), stored in events: they never change.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum ScoringSystem {
            $(
                #[doc = $doc]
                #[serde(rename = $name)]
                $variant,
            )*
        }

        impl ScoringSystem {
            /// Every system, in catalogue order.
            pub const ALL: &'static [ScoringSystem] = &[$(ScoringSystem::$variant),*];

            /// Everything the catalogue says about the system.
            pub fn info(self) -> SystemInfo {
                match self {
                    $(ScoringSystem::$variant => SystemInfo {
                        system: self,
                        name: $name,
                        graphql_name: $graphql,
                        display_name: $display,
                        aliases: &[$($alias),*],
                        result_kind: ResultKind::$kind,
                        players_per_game: PlayersPerGame { min: $min, max: $max },
                        needs: &[$(ResultField::$need),*],
                        concession: ConcessionScoring::$concession,
                        rule: $rule,
                        source: $source,
                        description: $doc,
                    },)*
                }
            }

            /// The system's scoring function (validation is the caller's).
            pub(crate) fn scoring(self) -> Scoring {
                match self {
                    $(ScoringSystem::$variant => Scoring::$kind($score),)*
                }
            }
        }
    };
}

crate::scoring_catalogue!(define_scoring_system);

/// The games whose new competitions start with a system other than the catalogue's first
/// (Placement) in a client's forms (`docs/scoring.md#the-usual-system-of-a-game`): Diplomacy
/// starts with Squares, the sum-of-squares system most Diplomacy tournaments score their
/// boards with. Game names compare without case.
pub const USUAL_SYSTEMS: &[(&str, ScoringSystem)] = &[("Diplomacy", ScoringSystem::Squares)];

/// Every system's facts, in catalogue order.
pub fn catalogue() -> Vec<SystemInfo> {
    ScoringSystem::ALL.iter().map(|system| system.info()).collect()
}

impl ScoringSystem {
    /// The name used by the CLI and stored in events; same as the serde name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The GraphQL enum value (`DETOUR_98F`).
    pub fn graphql_name(self) -> &'static str {
        self.info().graphql_name
    }

    /// The name people use (`Squares`, `Centre-count Carnage`).
    pub fn display_name(self) -> &'static str {
        self.info().display_name
    }

    /// Other names users know the system by, accepted by `FromStr`.
    pub fn aliases(self) -> &'static [&'static str] {
        self.info().aliases
    }

    /// One line saying what the system is, with its `docs/scoring.md` section.
    pub fn description(self) -> &'static str {
        self.info().description
    }

    /// Which [`GameResult`](crate::GameResult) shape the system scores.
    pub fn result_kind(self) -> ResultKind {
        self.info().result_kind
    }

    /// How many players a game of this system has.
    pub fn players_per_game(self) -> PlayersPerGame {
        self.info().players_per_game
    }

    /// How the system scores a concession recorded now.
    pub fn concession(self) -> ConcessionScoring {
        self.info().concession
    }

    /// Whether the system scores a concession as the power conceded to's solo under `rule`
    /// (`docs/scoring.md#draws-and-concessions`): under the current rule as the catalogue says
    /// ([`ScoringSystem::concession`]); under the rule of results recorded before that, also
    /// the systems of [`CONCESSION_SOLO_ONLY_UNDER_EARLIER_RULE`]; under the first rule (a
    /// draw of one) never.
    pub fn scores_concession_as_solo(self, rule: crate::ConcessionRule) -> bool {
        use crate::ConcessionRule;
        match rule {
            ConcessionRule::PerSystem => self.concession() == ConcessionScoring::AsSolo,
            ConcessionRule::Solo => {
                self.concession() == ConcessionScoring::AsSolo
                    || CONCESSION_SOLO_ONLY_UNDER_EARLIER_RULE.contains(&self)
            }
            ConcessionRule::DrawOfOne => false,
        }
    }

    /// Every name the system answers to: CLI name, GraphQL name, display name, aliases.
    pub(crate) fn names(self) -> impl Iterator<Item = &'static str> {
        let info = self.info();
        [info.name, info.graphql_name, info.display_name]
            .into_iter()
            .chain(info.aliases.iter().copied())
    }
}
