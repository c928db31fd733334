/** A component's address below its environment, for both interfaces' routers. */
export const COMPONENT = '/components/:component/';
