/** The `business` part of /api/manage/index/stat (server/stats/report.ts). */
export interface BusinessPoint {
  bucket: string;
  revenue: number;
  paid: number;
  refunded: number;
  customers_new: number;
  customers_paying: number;
  points_granted: number;
  points_spent: number;
  mail_sent: number;
  mail_failed: number;
}

export interface BusinessStat {
  period: '30d' | '12m';
  currency: string;
  series: BusinessPoint[];
  totals: { revenue: number; paid: number; refunded: number; customers_new: number; mail_sent: number; mail_failed: number };
  orders_by_status: Record<string, number>;
  orders_pending_now: number;
  top_products: { product_id: number; name_zh: string; name_en: string; orders: number; revenue: number }[];
  points: { granted: number; bought: number; spent: number; refunded: number; deducted: number };
  capacity: { sold: number; granted: number; allocated: number; used: number; as_of: string } | null;
  renewals_due_30d: { blocks: number; bytes: number; next: { id: number; owner_id: number; email: string; size: number; expires_at: string }[] };
  over_capacity: { user_id: number; email: string; capacity: number; allocated: number; shortfall: number; since: string }[];
}
