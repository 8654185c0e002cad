class Provider: pass
DiscoveryHit = Hit = Hits = object
