/**
 * The material flows both materials and products answer among their circular properties: the shares of their
 * feedstock and of their end of life, and the recycling efficiencies. Written once; each catalogue spreads them into
 * its own schema, where products add their lifetimes and the flows of the product as a whole.
 */
import { Double, Nullable } from '../schema-kit';

/** The flow fields as answered (null: not known). */
export function circularFlowFields() {
  return {
    recycledPercentageFeedstock: Nullable(Double()),
    rapidRenewablesPercentageFeedstock: Nullable(Double()),
    virginPercentageFeedstock: Nullable(Double()),
    recycledPercentageEndOfLife: Nullable(Double()),
    landfillPercentageEndOfLife: Nullable(Double()),
    incinerationPercentageEndOfLife: Nullable(Double()),
    efficiencyPercentageRecyclingFeedstock: Nullable(Double()),
    efficiencyPercentageRecyclingEndOfLife: Nullable(Double()),
  };
}
