//! The file graph: who uses what is defined where, and a PageRank over it.

/// A weighted directed graph over file indices.
#[derive(Debug, Clone, Default)]
pub struct FileGraph {
    /// Outgoing edges per node: (target, weight).
    pub edges: Vec<Vec<(usize, f64)>>,
}

impl FileGraph {
    /// A graph with `nodes` nodes and no edges.
    pub fn new(nodes: usize) -> Self {
        Self { edges: vec![Vec::new(); nodes] }
    }

    /// Adds weight to the edge `from -> to` (self-loops are ignored).
    pub fn add(&mut self, from: usize, to: usize, weight: f64) {
        if from != to && weight > 0.0 {
            self.edges[from].push((to, weight));
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.edges.len()
    }

    /// True when there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }

    /// PageRank with restarts to `personalization` (any non-negative weights; uniform when
    /// all zero), `damping` the chance to follow an edge, `iterations` rounds.
    pub fn pagerank(&self, personalization: &[f64], damping: f64, iterations: usize) -> Vec<f64> {
        let n = self.len();
        if n == 0 {
            return Vec::new();
        }
        let total: f64 = personalization.iter().sum();
        let restart: Vec<f64> =
            if total > 0.0 { personalization.iter().map(|p| p / total).collect() } else { vec![1.0 / n as f64; n] };
        let out_weight: Vec<f64> = self.edges.iter().map(|edges| edges.iter().map(|(_, w)| w).sum()).collect();
        let mut rank = restart.clone();
        for _ in 0..iterations {
            let mut next: Vec<f64> = restart.iter().map(|r| (1.0 - damping) * r).collect();
            let mut dangling = 0.0;
            for (node, edges) in self.edges.iter().enumerate() {
                if out_weight[node] == 0.0 {
                    dangling += rank[node];
                    continue;
                }
                let share = damping * rank[node] / out_weight[node];
                for (target, weight) in edges {
                    next[*target] += share * weight;
                }
            }
            for (value, r) in next.iter_mut().zip(&restart) {
                *value += damping * dangling * r;
            }
            rank = next;
        }
        rank
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_flows_from_the_seed_along_edges() {
        // 0 -> 1 -> 2, 3 isolated; restart at 0.
        let mut graph = FileGraph::new(4);
        graph.add(0, 1, 1.0);
        graph.add(1, 2, 1.0);
        graph.add(2, 2, 5.0);
        let rank = graph.pagerank(&[1.0, 0.0, 0.0, 0.0], 0.85, 30);
        assert!(rank[0] > rank[1] && rank[1] > rank[2] && rank[2] > rank[3], "{rank:?}");
        assert_eq!(rank[3], 0.0);
        assert!((rank.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn no_seed_means_plain_pagerank() {
        let mut graph = FileGraph::new(3);
        graph.add(0, 2, 1.0);
        graph.add(1, 2, 1.0);
        let rank = graph.pagerank(&[0.0; 3], 0.85, 30);
        assert!(rank[2] > rank[0] && (rank[0] - rank[1]).abs() < 1e-12, "{rank:?}");
        assert!(FileGraph::default().pagerank(&[], 0.85, 5).is_empty());
    }
}
