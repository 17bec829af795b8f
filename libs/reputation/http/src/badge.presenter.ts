import type { Badge, BadgeListEntry } from '@rc/reputation-domain';
import { toUnixSeconds } from '@rc/shared-kernel';

export interface BadgeBody {
  badgeid: number;
  name: string;
  type: Badge['type'];
  category: Badge['category'];
  description: string;
  multiple: boolean;
  num_users: number;
  icon: string | null;
  image: string;
  secondary_color: string;
}

export interface BadgeListItemBody {
  earned: boolean;
  times_earned: number;
  date: number | null;
  badge: BadgeBody;
}

export function presentBadge(badge: Badge, numUsers: number): BadgeBody {
  return {
    badgeid: badge.id,
    name: badge.name,
    type: badge.type,
    category: badge.category,
    description: badge.description,
    multiple: badge.multiple,
    num_users: numUsers,
    icon: badge.icon,
    image: badge.image,
    secondary_color: badge.secondaryColor,
  };
}

/** A BadgeList item (reference §3.15). */
export function presentBadgeListItem(entry: BadgeListEntry): BadgeListItemBody {
  return {
    earned: entry.earned,
    times_earned: entry.timesEarned,
    date: entry.lastEarnedAt ? toUnixSeconds(entry.lastEarnedAt) : null,
    badge: presentBadge(entry.badge, entry.numUsers),
  };
}
