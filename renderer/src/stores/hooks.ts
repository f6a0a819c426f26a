// React access to the stores: one context holding them, and a selector hook per store.
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AppState } from './app-store.ts';
import type { CampaignState } from './campaign-store.ts';
import type { CampaignsState } from './campaigns-store.ts';
import type { EnvironmentsState } from './environments-store.ts';
import type { Stores } from './index.ts';
import type { WizardState } from './wizard-store.ts';

export const StoresContext = createContext<Stores | null>(null);

export function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores() outside <StoresContext.Provider>');
  return stores;
}

export const useApp = <T,>(selector: (s: AppState) => T): T => useStore(useStores().app, selector);
export const useEnvironments = <T,>(selector: (s: EnvironmentsState) => T): T => useStore(useStores().environments, selector);
export const useCampaigns = <T,>(selector: (s: CampaignsState) => T): T => useStore(useStores().campaigns, selector);
export const useCampaign = <T,>(selector: (s: CampaignState) => T): T => useStore(useStores().campaign, selector);
export const useWizard = <T,>(selector: (s: WizardState) => T): T => useStore(useStores().wizard, selector);
