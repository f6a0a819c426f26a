/** The API key tests use at the simulator unless they need another one (product ids depend on it). */
export const TEST_KEY = 'test_key_5f0c2a91';
